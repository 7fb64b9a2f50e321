package org.coalition.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.PilotStatus;
import org.coalition.handler.QueueObservation;
import org.coalition.handler.ResourceHandler;
import org.coalition.handler.ResourceHandlerContract;
import org.coalition.handler.ScriptRunner;
import org.coalition.testbed.Eventually;
import org.junit.jupiter.api.AfterAll;

/**
 * The handler SPI's shared contract on the local batch system: real processes on this machine,
 * pilots run as the unprivileged account ({@code nobody} under root) through a launcher that runs
 * their command, as the daemon's in-process pilots do with the pilot agent.
 */
class LocalContractIT extends ResourceHandlerContract {
  private static final int CORES = 4;
  private final Path root;
  private final List<PilotHandle> submitted = new ArrayList<>();
  private LocalSite site;

  LocalContractIT() throws IOException {
    root = Files.createTempDirectory("coalition-local-contract-");
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** Its pilots run inside the daemon, through {@link ScriptRunner}: they have no batch output. */
  @Override
  protected boolean keepsPilotOutput() {
    return false;
  }

  @Override
  protected ResourceHandler connect() {
    try {
      Path scratch = Files.createDirectories(root.resolve("scratch"));
      Files.setPosixFilePermissions(scratch, PosixFilePermissions.fromString("rwx--x--x"));
      ScriptRunner runner = new ScriptRunner(scratch);
      site = new LocalSite("contract", CORES, runner, () -> System.currentTimeMillis() / 1000.0);
      site.pilots(spec -> run(runner, spec));
      return new Recording(site);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs the pilot's command as its account, in its working folder, with its environment; interrupted: killed. */
  private static int run(ScriptRunner runner, PilotSpec spec) throws InterruptedException {
    StringBuilder script = new StringBuilder();
    spec.environment().forEach((k, v) -> script.append("export ").append(k).append('=').append(quote(v)).append('\n'));
    script.append("cd ").append(quote(spec.workingDirectory())).append(" || exit 126\nexec");
    spec.command().forEach(w -> script.append(' ').append(quote(w)));
    ScriptRunner.Run run = runner.start(spec.name(), spec.account(), script.append('\n').toString());
    try {
      if (!run.process().waitFor(spec.walltimeSeconds(), TimeUnit.SECONDS)) {
        run.process().destroyForcibly().waitFor();
      }
      return run.process().exitValue();
    } catch (InterruptedException e) {
      run.process().destroyForcibly();
      throw e;
    } finally {
      run.clean();
    }
  }

  private static String quote(String word) {
    return "'" + word.replace("'", "'\\''") + "'";
  }

  @Override
  protected boolean observingMakesRequests() {
    return false;
  }

  @Override
  protected String account() {
    return ScriptRunner.unprivilegedAccount();
  }

  @Override
  protected String partition() {
    return "";
  }

  @Override
  protected int totalCores() {
    return CORES;
  }

  @Override
  protected Path jobsFolder() {
    return root;
  }

  /** Cancels every pilot the suite submitted and waits until nothing is pending or allocated. */
  @Override
  protected void emptyQueue() {
    if (site == null) {
      return;
    }
    List<PilotHandle> all;
    synchronized (submitted) {
      all = List.copyOf(submitted);
    }
    all.forEach(site::cancel);
    Eventually.waitFor(() -> "the local system empties", Duration.ofSeconds(30), Duration.ofMillis(100), () -> {
      QueueObservation o = site.observe();
      return o.pendingJobs() == 0 && o.allocatedCores() == 0;
    });
  }

  @AfterAll
  void removeFolder() throws IOException {
    try (var files = Files.walk(root)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /** The handler under test, remembering what the suite submits so that {@link #emptyQueue} can cancel it. */
  private final class Recording implements ResourceHandler {
    private final LocalSite inner;

    Recording(LocalSite inner) {
      this.inner = inner;
    }

    @Override
    public String describe() {
      return inner.describe();
    }

    @Override
    public QueueObservation observe() {
      return inner.observe();
    }

    @Override
    public PilotHandle submit(PilotSpec spec) {
      PilotHandle h = inner.submit(spec);
      synchronized (submitted) {
        submitted.add(h);
      }
      return h;
    }

    @Override
    public void hold(PilotHandle pilot) {
      inner.hold(pilot);
    }

    @Override
    public void release(PilotHandle pilot) {
      inner.release(pilot);
    }

    @Override
    public void cancel(PilotHandle pilot) {
      inner.cancel(pilot);
    }

    @Override
    public PilotStatus status(PilotHandle pilot) {
      return inner.status(pilot);
    }

    @Override
    public Map<PilotHandle, PilotStatus> statuses(Collection<PilotHandle> pilots) {
      return inner.statuses(pilots);
    }

    @Override
    public void close() {
      inner.close();
    }
  }
}
