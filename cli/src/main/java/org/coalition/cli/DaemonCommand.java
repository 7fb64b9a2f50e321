package org.coalition.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import org.coalition.api.DaemonApi;
import org.coalition.api.DaemonHealth;
import org.coalition.api.MungeUsers;
import org.coalition.config.ConfigException;
import org.coalition.config.SiteConfig;
import org.coalition.config.SiteConfigReader;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.zookeeper.ZkCoordination;
import org.coalition.coordination.zookeeper.ZkFederation;
import org.coalition.coordination.zookeeper.ZkTls;
import org.coalition.daemon.Broker;
import org.coalition.daemon.DaemonTls;
import org.coalition.daemon.SiteDaemon;
import org.coalition.daemon.base.BrokerSettings;
import org.coalition.daemon.base.OperatorSettings;
import org.coalition.daemon.executor.PilotJournal;
import org.coalition.daemon.home.ParkJournal;
import org.coalition.daemon.market.MarketSide;
import org.coalition.daemon.outputs.RunOutputs;
import org.coalition.daemon.pilot.PilotAgent;
import org.coalition.handler.HandlerContext;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerFactories;
import org.coalition.handler.HandlerSettings;
import org.coalition.handler.HomeQueue;
import org.coalition.handler.InProcessPilots;
import org.coalition.handler.ResourceHandler;
import org.coalition.handler.ScriptRunner;
import org.coalition.handler.SiteHandlers;
import org.coalition.handler.config.Durations;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code coalition daemon --config FILE}: one site's daemon, until SIGTERM. Reads the site file,
 * joins the federation, drives the batch system, serves the API.
 */
@Command(name = "daemon", mixinStandardHelpOptions = true,
    description = {"Run the federation daemon of one site until stopped (SIGTERM or Ctrl-C).",
        "Check the site file first with 'coalition config check FILE'."})
final class DaemonCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--config", required = true, paramLabel = "FILE", description = "The site file (docs/site-file.md).")
  Path config;

  @Option(names = "--tick", defaultValue = "1s", paramLabel = "DURATION",
      description = "How often the broker looks at the batch system (default ${DEFAULT-VALUE}).")
  Duration tick;

  /** A configuration to run instead of reading {@link #config} ({@code trial}'s, its problems placed in the user's file). */
  SiteConfig given;

  /** The spool's folder of what an operator set at runtime ({@link OperatorSettings}). */
  static final String OPERATOR_SETTINGS = "operator";
  /** How often the daemon asks whether its federation still takes it (a removal, a revoked key): one read. */
  private static final int REFUSAL_CHECK_SECONDS = 10;
  private final CountDownLatch stop = new CountDownLatch(1);
  /** The running broker, told at once when a stop is asked: it hands out no more work while the daemon closes. */
  private volatile Broker running;

  @Override
  public Integer call() throws Exception {
    // the stop's hook before anything else: Ctrl-C or SIGTERM at any moment of the start is a stop, never an error
    SystemdNotify systemd = SystemdNotify.fromEnvironment(System.getenv());
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook = onShutdown(systemd, stopped);
    try {
      Runtime.getRuntime().addShutdownHook(hook);
    } catch (IllegalStateException e) {
      return ExitCodes.OK; // stopped (Ctrl-C, SIGTERM) before it began: nothing was started
    }
    try {
      return run(systemd);
    } catch (Exception e) {
      if (stop.getCount() == 0) {
        say("stopped while starting");
        return ExitCodes.OK;
      }
      throw e;
    } finally {
      systemd.stopWatchdog();
      stopped.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // the JVM is shutting down (SIGTERM): the hook runs, and returns now
      }
    }
  }

  private int run(SystemdNotify systemd) throws Exception {
    SiteConfig c;
    try {
      c = given != null ? given : SiteConfigReader.read(config);
    } catch (ConfigException e) {
      e.problems().forEach(spec.commandLine().getErr()::println);
      spec.commandLine().getErr().flush();
      return ExitCodes.BAD_INPUT;
    }
    Logging.apply(c.logging(), System.getenv("COALITION_LOG_FORMAT"));
    // the checks config check runs: the stores, the secrets, the spool (one code path)
    List<String> problems = SiteChecks.problems(c);
    if (!problems.isEmpty()) {
      problems.forEach(p -> spec.commandLine().getErr().println("coalition daemon: " + p));
      spec.commandLine().getErr().flush();
      return ExitCodes.BAD_INPUT;
    }
    ZkTls zkTls = SiteChecks.identity(c);
    byte[] operator = SiteChecks.secret(c.http().operatorTokenFile(), "the operator token").getBytes(StandardCharsets.UTF_8);
    Optional<SSLContext> tls = SiteChecks.apiTls(c);
    // TLS between daemons goes with an API that serves TLS: without it (loopback), outputs are capabilities as before
    DaemonTls between = tls.isPresent() ? DaemonTlsContexts.between(c.federation().identity(), c.federation().trust(), c.federation().name())
        : DaemonTls.NONE;
    Duration tickEvery = tick;
    if (tickEvery.toMillis() < 100) {
      throw new IllegalArgumentException("--tick must be at least 100ms, was " + Durations.format(tickEvery));
    }

    c.warnings().forEach(w -> spec.commandLine().getErr().println("coalition daemon: warning: " + w));
    Files.createDirectories(c.spool());
    Files.setPosixFilePermissions(c.spool(), PosixFilePermissions.fromString("rwx--x--x"));
    Path scratch = Files.createDirectories(c.spool().resolve("scratch"));
    Files.setPosixFilePermissions(scratch, PosixFilePermissions.fromString("rwx--x--x"));
    ScriptRunner runner = new ScriptRunner(scratch);

    String endpoint = c.http().url();
    // the batch system first: one that refuses the daemon's credentials is found before the site joins its federation
    FederationClock clock = new FederationClock();
    ResourceHandler connected;
    try {
      Optional<ResourceHandler> handler = connectPatiently(c, new HandlerContext(c.site(), runner, clock));
      if (handler.isEmpty()) {
        return ExitCodes.OK; // stopped while waiting for the batch system
      }
      connected = handler.get();
    } catch (HandlerException e) {
      spec.commandLine().getErr().println("coalition daemon: " + c.where("handlers") + ": " + e.getMessage() + "; the site did not join"
          + " its federation");
      spec.commandLine().getErr().flush();
      return ExitCodes.BAD_INPUT;
    }
    Optional<ZkCoordination> joined;
    try {
      joined = joinPatiently(c, zkTls);
    } catch (CoordinationException e) {
      connected.close();
      spec.commandLine().getErr().println("coalition daemon: " + e.getMessage());
      spec.commandLine().getErr().flush();
      return ExitCodes.BAD_INPUT;
    }
    if (joined.isEmpty()) {
      connected.close();
      return ExitCodes.OK; // stopped while waiting for ZooKeeper
    }
    Optional<String> refused = Optional.empty();
    try (ZkCoordination coordination = joined.get();
        ResourceHandler handler = connected) {
      clock.joined(coordination::now);
      BrokerSettings settings = SiteSettings.of(c, endpoint, handler instanceof InProcessPilots in ? in.pilotCommand() : c.pilots().command());
      Broker broker = new Broker(settings, coordination, handler, home(handler, c.handlers()),
          new RunOutputs(c.spool().resolve("outputs"), endpoint), new PilotJournal(c.spool().resolve("pilots")),
          ParkJournal.in(c.spool().resolve("parks")), OperatorSettings.in(c.spool().resolve(OPERATOR_SETTINGS), c.sharing().participation()),
          between, Clock.systemUTC());
      running = broker;
      if (handler instanceof InProcessPilots in) {
        in.pilots(p -> PilotAgent.of(broker, p.environment(), runner, c.pilots().heartbeat().toMillis(), coordination::now).run());
      }
      Optional<MarketSide> market;
      try {
        market = MarketSides.of(c, broker, handler);
      } catch (IllegalArgumentException | IllegalStateException e) {
        spec.commandLine().getErr().println("coalition daemon: " + c.where("contracts") + ": " + e.getMessage());
        spec.commandLine().getErr().flush();
        return ExitCodes.BAD_INPUT;
      }
      try (SiteDaemon daemon = SiteDaemon.start(broker, tickEvery, c.sharing().balancingPeriod(), market);
          DaemonApi api = DaemonApi.start(broker, c.http().bind(), c.http().port(), tls, operator,
              DaemonHealth.of(coordination::connected, handler::describe), c.http().unmunge().map(MungeUsers::new))) {
        systemd.startWatchdog(broker::alive);
        String hello = "site " + daemon.broker().settings().site() + " joined federation " + c.federation().name() + "; API at " + api.uri();
        say(hello + "; stop with SIGTERM");
        systemd.ready(hello);
        for (long second = 1; !stop.await(1, TimeUnit.SECONDS); second++) {
          if (broker.drained()) {
            say("site " + c.site() + " drained: no foreign job runs here any more");
            systemd.stopping("drained");
            break;
          }
          refused = second % REFUSAL_CHECK_SECONDS == 0 ? coordination.refusal() : Optional.empty();
          if (refused.isPresent()) {
            systemd.stopping("refused by the federation");
            break;
          }
        }
        say("site " + c.site() + " stopping: pilots still queued are cancelled; running ones go on, and a restart within "
            + Durations.format(c.federation().restartGrace()) + " takes them back");
      }
    }
    say("site " + c.site() + " stopped");
    if (refused.isPresent()) {
      // exit 4, which the unit does not restart: a new key or a new membership is the operator's to give
      spec.commandLine().getErr().println("coalition daemon: " + refused.get() + "; stopped");
      spec.commandLine().getErr().flush();
      return ExitCodes.BAD_INPUT;
    }
    return ExitCodes.OK;
  }

  /** On SIGTERM (or any JVM shutdown while it runs): say so, tell systemd, and let the daemon close in order for up to 25 s. */
  private Thread onShutdown(SystemdNotify systemd, CountDownLatch stopped) {
    return new Thread(() -> {
      if (stopped.getCount() == 0) {
        return;
      }
      say("asked to stop (SIGTERM or SIGINT)");
      systemd.stopping("stopping on SIGTERM");
      quiesce();
      stop.countDown();
      try {
        stopped.await(25, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "coalition-stop");
  }

  private void say(String line) {
    spec.commandLine().getErr().println("coalition daemon: " + line);
    spec.commandLine().getErr().flush();
  }

  /**
   * The batch systems the site file names, each connected by its factory: one handler as it is,
   * several as {@link SiteHandlers}.
   */
  static ResourceHandler connect(SiteConfig c, HandlerContext context) {
    HandlerFactories factories = HandlerFactories.installed();
    List<SiteHandlers.Member> members = new ArrayList<>();
    try {
      for (HandlerSettings h : c.handlers()) {
        ResourceHandler handler = factories.find(h.type()).orElseThrow().connect(h, context);
        members.add(new SiteHandlers.Member(h.name(), handler, h.publishesHomeJobs() ? Optional.of((HomeQueue) handler) : Optional.empty()));
      }
    } catch (RuntimeException e) {
      members.forEach(m -> m.handler().close());
      throw e;
    }
    return members.size() == 1 ? members.get(0).handler() : new SiteHandlers(members);
  }

  /** Where the site's own users' jobs come from, if any of its systems publishes them. */
  private static Optional<HomeQueue> home(ResourceHandler handler, List<HandlerSettings> handlers) {
    if (handler instanceof SiteHandlers several) {
      return several.hasHomeQueue() ? Optional.of(several) : Optional.empty();
    }
    return handlers.get(0).publishesHomeJobs() ? Optional.of((HomeQueue) handler) : Optional.empty();
  }

  /**
   * The federation's clock for the handlers, which connect before the site joins: read only once
   * it has (a handler that reads it sooner is a bug, and says so).
   */
  private static final class FederationClock implements DoubleSupplier {
    private volatile DoubleSupplier federation;

    void joined(DoubleSupplier now) {
      federation = now;
    }

    @Override
    public double getAsDouble() {
      DoubleSupplier f = federation;
      if (f == null) {
        throw new IllegalStateException("the federation's clock was read before the site joined it");
      }
      return f.getAsDouble();
    }
  }

  /** Stops a daemon started by {@link #call()} in this process (tests). */
  void stop() {
    quiesce();
    stop.countDown();
  }

  /** The first step of a stop: no more work handed to pilots, before anything closes. */
  private void quiesce() {
    Broker b = running;
    if (b != null) {
      b.stopHandingOutWork();
    }
  }

  /**
   * Connects to the batch system, waiting for it as long as it takes, before the site joins its
   * federation: a daemon may start before its slurmrestd or qmaster (a host's boot, a cluster's
   * containers). Each attempt that finds it not answering is one line, retried after 5 s; one that
   * refuses the daemon (its credentials, its version) ends the daemon with the handler's exception.
   * Empty if it was stopped meanwhile.
   */
  private Optional<ResourceHandler> connectPatiently(SiteConfig c, HandlerContext context) throws InterruptedException {
    return patiently(() -> connect(c, context), e -> e instanceof HandlerException h && h.category().retryable()
        ? Optional.of(c.where("handlers") + ": " + e.getMessage() + "; the site has not joined its federation") : Optional.empty(),
        "config check --online FILE asks the batch system as the daemon does");
  }


  /**
   * Connects to the federation, waiting for ZooKeeper as long as it takes: a daemon may start
   * before its ensemble, or while its servers are busy (a first TLS handshake in a cold JVM on a
   * loaded host took longer than the per-server connect window in the container tier). Each failed
   * attempt is reported and retried after 5 s; any other refusal (not a member, a bad identity) ends
   * the daemon. Empty if it was stopped meanwhile.
   */
  private Optional<ZkCoordination> joinPatiently(SiteConfig c, ZkTls tls) throws InterruptedException {
    ZkFederation.Options options = new ZkFederation.Options(c.federation().sessionTimeout(), ZkFederation.Options.CONNECT_TIMEOUT,
        ZkFederation.Options.CLAIM_LEASE, ZkFederation.Options.MAX_CLAIMS_PER_MEMBER, c.federation().restartGrace());
    return patiently(() -> ZkFederation.connect(c.federation().zookeeper(), tls, Clock.systemUTC(), options),
        e -> e instanceof CoordinationException z && z.kind() == CoordinationException.Kind.UNAVAILABLE ? Optional.of(e.getMessage())
            : Optional.empty(), "");
  }

  /**
   * What {@code attempt} gives, tried again every 5 s while it fails in a way {@code notYet} says
   * is a server not answering yet (one line each time: what {@code notYet} says, the attempt, and
   * {@code hint}); any other failure is thrown. Empty if the daemon is stopped meanwhile.
   */
  private <T> Optional<T> patiently(Supplier<T> attempt, Function<RuntimeException, Optional<String>> notYet, String hint)
      throws InterruptedException {
    for (int n = 1; ; n++) {
      if (stop.getCount() == 0) {
        return Optional.empty();
      }
      try {
        return Optional.of(attempt.get());
      } catch (RuntimeException e) {
        Optional<String> waiting = notYet.apply(e);
        if (waiting.isEmpty()) {
          throw e;
        }
        say(waiting.get() + "; trying again in 5 s (attempt " + n + (hint.isEmpty() ? "" : "; " + hint) + ")");
        if (stop.await(5, TimeUnit.SECONDS)) {
          return Optional.empty();
        }
      }
    }
  }

}
