package org.coalition.handler;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.coalition.handler.files.AsAccount;
import org.coalition.handler.files.NoFollow;

/**
 * Runs a job script as a local account in a fresh folder: the script, its standard output and
 * error, and how it ended are files there; the job works in the folder's {@value #SANDBOX}
 * subfolder, which holds the files it brought and is all it may send home ({@link Run#sandbox}).
 * When this process is root the script runs through {@code setpriv} as the account (never as
 * root); otherwise only as the account this process already runs as.
 */
public final class ScriptRunner {
  private static final String ME = AsAccount.me();
  private static final boolean ROOT = AsAccount.root();
  /** Most bytes kept of each output stream. */
  public static final int MAX_STREAM = 8 << 20;
  /** Longer than a tick of the kernel's coarse clock that stamps file times (HZ=100: 10 ms): see {@link #mark}. */
  private static final long FILE_CLOCK_TICK_MILLIS = 25;
  /** How long reading a job's output may take (a pipe put in its place never ends). */
  static final int READ_TIMEOUT_SECONDS = 10;

  /** The file, in the job's folder, its launcher writes how it ended to ({@link ExitStatus}). */
  static final String STATUS = ".coalition-status";
  /** The job's working folder, inside its run's folder. */
  public static final String SANDBOX = "sandbox";
  private static final Path PERL = Path.of("/usr/bin/perl");
  /** Changes into a job's own directory as its account (coreutils' {@code env -C}). */
  private static final Path ENV = Path.of("/usr/bin/env");
  /**
   * Runs the job in a process group of its own, passes on to that group the termination signals
   * it gets (a pilot stopping the job at its time limit), makes the job the first the kernel's OOM
   * killer takes (oom_score_adj 1000: a job past its memory dies, not the pilot that reports it),
   * waits, writes how the job ended to
   * {@value #STATUS} ("exit N" or "signal N") and exits as a shell would (128 + N for signal N).
   * Perl, because every Debian system has it (perl-base is essential) and a shell cannot tell
   * "signal 15" from "exit 143" either. Runs as the job's account, in the job's folder.
   */
  private static final String LAUNCHER = String.join("\n",
      "my $status = shift @ARGV;",
      "my $pid = fork();",
      "die \"coalition: cannot start the job: $!\\n\" unless defined $pid;",
      "if ($pid == 0) { setpgrp(0, 0); if (open(my $o, '>', '/proc/self/oom_score_adj')) { print $o \"1000\\n\"; close($o); }",
      "  exec { $ARGV[0] } @ARGV; print STDERR \"coalition: cannot run the job: $!\\n\"; exit 127; }",
      "for my $s (qw(TERM INT HUP QUIT USR1 USR2)) { $SIG{$s} = sub { kill $s, -$pid; }; }",
      "my $r; do { $r = waitpid($pid, 0); } while ($r == -1 && $!{EINTR});",
      "my $st = $?; my $sig = $st & 127;",
      "if (open(my $f, '>', $status)) { print $f ($sig ? \"signal $sig\\n\" : 'exit ' . ($st >> 8) . \"\\n\"); close($f); }",
      "exit($sig ? 128 + $sig : $st >> 8);");

  private final Path scratch;

  public ScriptRunner(Path scratch) {
    this.scratch = scratch;
  }

  /** The account this machine can run jobs as without privileges: this process's own, or {@code nobody} under root. */
  public static String unprivilegedAccount() {
    return ROOT ? "nobody" : ME;
  }

  /**
   * A started script: its process, the folder holding its output, the account it runs as, and
   * when its sandbox became the job's ({@link #mark}: what changed there since, the job did). The
   * folder is the account's: the job may have replaced its output files by links or pipes, so
   * they are read as that account (under root) or never through a link, and the folder is deleted
   * without following any.
   */
  public record Run(Process process, Path folder, String account, Instant handedOver) {
    /** Where the job works: the files it brought, and those it wrote. */
    public Path sandbox() {
      return folder.resolve(SANDBOX);
    }

    public byte[] stdout() {
      return head(folder.resolve("stdout"), account);
    }

    public byte[] stderr() {
      return head(folder.resolve("stderr"), account);
    }

    /**
     * How the job ended, once its process has: what its launcher wrote, or, without one (no
     * Perl here, or the job removed the file), the process's exit value, where signal N shows
     * as exit 128 + N.
     */
    public ExitStatus exit() {
      byte[] line = head(folder.resolve(STATUS), account);
      return ExitStatus.parse(new String(line, StandardCharsets.US_ASCII)).orElseGet(() -> ExitStatus.exited(process.exitValue()));
    }

    /**
     * Stops the job: SIGTERM (its launcher passes it on to the job's process group), and after
     * {@code graceSeconds} SIGKILL to whatever of it is left ({@link #kill}).
     */
    public void stop(long graceSeconds) throws InterruptedException {
      process.destroy();
      if (!process.waitFor(graceSeconds, TimeUnit.SECONDS)) {
        kill();
        process.waitFor();
      }
    }

    /** SIGKILL to the job's processes still running (the launcher's descendants first, which it would not pass a SIGKILL on to). */
    public void kill() {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
    }

    /** Deletes the working folder. */
    public void clean() {
      try {
        NoFollow.deleteTree(folder.getParent(), folder.getFileName().toString());
      } catch (IOException e) {
        // best effort: a leftover folder in scratch is harmless
      }
    }
  }

  /** Starts {@code script} as {@code account} in a new folder named after {@code name}. */
  public Run start(String name, String account, String script) {
    return start(name, account, script, sandbox -> { });
  }

  /** Fills a job's sandbox before the job starts, with this process's rights (the folder is new, and nothing of the job runs yet). */
  @FunctionalInterface
  public interface Preparation {
    void fill(Path sandbox) throws IOException;
  }

  /**
   * Starts {@code script} as {@code account} in a new folder named after {@code name}, its sandbox
   * filled by {@code prepare} first; under root, what {@code prepare} made is then handed to the
   * account (it must make regular files and folders only).
   */
  public Run start(String name, String account, String script, Preparation prepare) {
    return start(name, account, script, Map.of(), prepare);
  }

  /**
   * Starts {@code script} as {@link #start(String, String, String, Preparation)} does, with
   * {@code environment} added to what it inherits (an array task's numbers, as its home's batch
   * system would set them; the caller bounds them).
   */
  public Run start(String name, String account, String script, Map<String, String> environment, Preparation prepare) {
    return start(name, account, script, environment, prepare, null);
  }

  /**
   * Starts {@code script} as {@code account} in {@code place}, the job's own directory at its home
   * (an identity domain shares it, docs/jobs.md): the job works there rather than in a sandbox,
   * and its {@code HOME} is the account's own. The account changes into it ({@code env -C}), never
   * this process. The run's folder keeps its script, output and status as for any run.
   */
  public Run startIn(String name, String account, String script, Map<String, String> environment, Path place) {
    return start(name, account, script, environment, sandbox -> { }, place);
  }

  private Run start(String name, String account, String script, Map<String, String> environment, Preparation prepare, Path place) {
    if (account.equals("root")) {
      throw new IllegalArgumentException("job " + name + ": foreign jobs never run as root");
    }
    if (!ROOT && !account.equals(ME)) {
      throw new IllegalArgumentException("job " + name + ": cannot run as '" + account + "' from account '" + ME
          + "'; run the daemon as root (it switches to the mapped account) or map the site to '" + ME + "'");
    }
    Path folder;
    try {
      Files.createDirectories(scratch);
      folder = Files.createTempDirectory(scratch, name.replaceAll("[^A-Za-z0-9._-]", "_") + "-",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (IOException e) {
      throw new UncheckedIOException("job " + name + ": cannot start as " + account + ": " + e.getMessage(), e);
    }
    try {
      return launch(folder, account, script, environment, prepare, place);
    } catch (IOException | RuntimeException e) {
      new Run(null, folder, account, Instant.EPOCH).clean(); // nothing of the job ran: its folder goes
      throw e instanceof IOException io ? new UncheckedIOException("job " + name + ": cannot start as " + account + ": " + io.getMessage(), io)
          : (RuntimeException) e;
    }
  }

  private Run launch(Path folder, String account, String script, Map<String, String> environment, Preparation prepare, Path place)
      throws IOException {
    Path file = folder.resolve("job");
    Files.writeString(file, script, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
    Path sandbox = Files.createDirectory(folder.resolve(SANDBOX));
    prepare.fill(sandbox);
    // made here, not by the redirects below: their mode would follow the daemon's umask (its unit
    // says 0077), and the account could not read back its own output as root's file
    List<Path> streams = new ArrayList<>();
    for (String stream : List.of("stdout", "stderr")) {
      streams.add(Files.createFile(folder.resolve(stream), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))));
    }
    if (ROOT) {
      UserPrincipalLookupService users = folder.getFileSystem().getUserPrincipalLookupService();
      UserPrincipal owner = users.lookupPrincipalByName(account);
      for (Path stream : streams) {
        Files.setOwner(stream, owner);
      }
      Files.setOwner(folder, owner);
      Files.setOwner(file, owner);
      try (var made = Files.walk(sandbox)) {
        for (Path p : (Iterable<Path>) made::iterator) {
          Files.getFileAttributeView(p, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).setOwner(owner);
        }
      }
    }
    Instant handedOver = mark(folder);
    List<String> launcher = new ArrayList<>();
    if (place != null) {
      launcher.addAll(List.of(ENV.toString(), "-C", place.toString()));
    }
    if (Files.isExecutable(PERL)) {
      launcher.addAll(List.of(PERL.toString(), "-e", LAUNCHER, "--", folder.resolve(STATUS).toString()));
    }
    List<String> command = new ArrayList<>(AsAccount.command(account, launcher));
    if (script.startsWith("#!")) {
      command.add(file.toString());
    } else {
      command.addAll(List.of("/bin/sh", file.toString()));
    }
    ProcessBuilder pb = new ProcessBuilder(command).directory((place == null ? sandbox : folder).toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(folder.resolve("stdout").toFile())
        .redirectError(folder.resolve("stderr").toFile());
    pb.environment().put("HOME", place == null ? folder.toString() : LocalUsers.find(account).map(LocalUsers.User::home).orElse(folder.toString()));
    // the pilot's own settings (its id, its void first token, its daemon) are none of the job's business
    pb.environment().keySet().removeIf(k -> k.startsWith("COALITION_"));
    pb.environment().putAll(environment);
    return new Run(pb.start(), folder, account, handedOver);
  }

  /**
   * The instant from which what happens in the sandbox is the job's doing: the status-change time
   * of a file made in {@code folder} once the sandbox is filled and handed over, and a tick of the
   * kernel's file clock later. File times come from a coarse clock (a tick of 4 to 10 ms), so a
   * file the preparation made or handed over at the same tick as the mark would look as new as
   * the mark; after the pause, everything the preparation touched is strictly older, and
   * everything the job makes, copies ({@code cp -p}) or changes is at least as new, whatever
   * modification time it sets.
   */
  private static Instant mark(Path folder) throws IOException {
    try {
      Thread.sleep(FILE_CLOCK_TICK_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while starting the job", e);
    }
    Path marker = Files.write(folder.resolve("handed-over"), new byte[0]);
    return ((FileTime) Files.getAttribute(marker, "unix:ctime", LinkOption.NOFOLLOW_LINKS)).toInstant();
  }

  /**
   * The first {@link #MAX_STREAM} bytes of a job's output file; a note marks the cut. Under root
   * it is read as {@code account} ({@code setpriv ... head}, bounded in time: a pipe in its place
   * yields nothing), so a link to a file the account cannot read yields nothing either; otherwise
   * it is opened without following a link.
   */
  static byte[] head(Path file, String account) {
    byte[] data;
    try {
      if (ROOT && !account.equals(ME)) {
        data = readAs(account, file);
      } else if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
        return Files.exists(file, LinkOption.NOFOLLOW_LINKS) ? note("[coalition: " + file.getFileName() + " is not a regular file; not read]")
            : new byte[0];
      } else {
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
          data = in.readNBytes(MAX_STREAM + 1);
        }
      }
    } catch (NoSuchFileException e) {
      return new byte[0];
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
    if (data.length <= MAX_STREAM) {
      return data;
    }
    byte[] kept = Arrays.copyOf(data, MAX_STREAM);
    byte[] note = note("[coalition: output cut at " + MAX_STREAM + " bytes]");
    System.arraycopy(note, 0, kept, kept.length - note.length, note.length); // the note replaces the last bytes kept
    return kept;
  }

  private static byte[] note(String text) {
    return ("\n" + text + "\n").getBytes(StandardCharsets.US_ASCII);
  }

  /** Reads at most {@link #MAX_STREAM} + 1 bytes of {@code file} with {@code account}'s rights, giving up after {@link #READ_TIMEOUT_SECONDS}. */
  private static byte[] readAs(String account, Path file) throws IOException {
    Path out = Files.createTempFile("coalition-read-", ".out");
    try {
      Process p = new ProcessBuilder(AsAccount.command(account, List.of("head", "-c", Long.toString(MAX_STREAM + 1L), "--", file.toString())))
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      if (!p.waitFor(READ_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return note("[coalition: " + file.getFileName() + " could not be read within " + READ_TIMEOUT_SECONDS + " s (not a regular file?)]");
      }
      if (p.exitValue() != 0) {
        return Files.exists(file, LinkOption.NOFOLLOW_LINKS) ? note("[coalition: " + file.getFileName() + " is not readable by " + account
            + "]") : new byte[0];
      }
      return Files.readAllBytes(out);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading " + file, e);
    } finally {
      Files.deleteIfExists(out);
    }
  }
}
