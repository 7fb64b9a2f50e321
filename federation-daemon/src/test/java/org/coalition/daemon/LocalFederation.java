package org.coalition.daemon;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.coalition.coordination.memory.InMemoryCoordination;
import org.coalition.coordination.memory.InMemoryFederation;
import org.coalition.daemon.base.BrokerSettings;
import org.coalition.daemon.outputs.RunOutputs;
import org.coalition.daemon.pilot.PilotAgent;
import org.coalition.daemon.pilot.PilotService;
import org.coalition.handler.ScriptRunner;
import org.coalition.handler.SiteHandlers;
import org.coalition.local.LocalSite;
import org.coalition.periodic.BalancingPeriod;
import org.coalition.policy.fairness.Utility;

/**
 * Test federation: the in-memory coordination and demo sites running real local processes,
 * rounds driven by hand (balancing period, then broker ticks).
 */
public final class LocalFederation implements AutoCloseable {
  public static final String ME = ScriptRunner.unprivilegedAccount();

  private final Path tmp;
  private final InMemoryFederation federation = new InMemoryFederation(Clock.systemUTC());
  private final List<Site> sites = new ArrayList<>();
  private final List<LocalSite> closing = new ArrayList<>();

  public record Site(String name, LocalSite local, Broker broker, InMemoryCoordination coordination, BalancingPeriod period) {}

  public LocalFederation(Path tmp) throws Exception {
    this.tmp = tmp;
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx--x--x"));
    Path scratch = Files.createDirectories(tmp.resolve("scratch"));
    Files.setPosixFilePermissions(scratch, PosixFilePermissions.fromString("rwx--x--x"));
  }

  /** A site whose pilots call its broker in-process. */
  public Site site(String name, int cores) {
    return site(name, cores, broker -> broker);
  }

  /** A site whose pilots reach its broker through {@code pilotSide} (e.g. an HTTP client of its API). */
  public Site site(String name, int cores, Function<Broker, PilotService> pilotSide) {
    return site(name, cores, pilotSide, "local:" + name);
  }

  /** A site whose broker says its API is at {@code endpoint} (an http address: large outputs are served from there). */
  public Site site(String name, int cores, Function<Broker, PilotService> pilotSide, String endpoint) {
    return site(name, cores, pilotSide, endpoint, DaemonTls.NONE);
  }

  /** As above, with TLS between daemons ({@code tls}: the identity its output fetches show, and who peers are). */
  public Site site(String name, int cores, Function<Broker, PilotService> pilotSide, String endpoint, DaemonTls tls) {
    ScriptRunner runner = new ScriptRunner(tmp.resolve("scratch"));
    InMemoryCoordination c = federation.connect(name);
    LocalSite local = new LocalSite(name, cores, runner, c::now);
    Broker broker = new Broker(settings(name, endpoint), c, local, Optional.of(local), new RunOutputs(tmp.resolve("spool-" + name), endpoint),
        tls, Clock.systemUTC());
    local.pilots(p -> PilotAgent.of(pilotSide.apply(broker), p.environment(), runner, 200, c::now).run());
    Site s = new Site(name, local, broker, c, new BalancingPeriod(c));
    sites.add(s);
    return s;
  }

  /** A site of two batch systems, {@code a} and {@code b}, seen by its broker through {@link SiteHandlers}. */
  public record TwoSystems(Site site, LocalSite a, LocalSite b) {}

  /** A site of two demo batch systems of {@code coresA} and {@code coresB} cores; its pilots call its broker in-process. */
  public TwoSystems twoSystems(String name, int coresA, int coresB) {
    ScriptRunner runner = new ScriptRunner(tmp.resolve("scratch"));
    InMemoryCoordination c = federation.connect(name);
    LocalSite a = new LocalSite(name, coresA, runner, c::now);
    LocalSite b = new LocalSite(name, coresB, runner, c::now);
    SiteHandlers both = new SiteHandlers(List.of(new SiteHandlers.Member("a", a, Optional.of(a)), new SiteHandlers.Member("b", b, Optional.of(b))));
    Broker broker = new Broker(settings(name, "local:" + name), c, both, Optional.of(both), new RunOutputs(tmp.resolve("spool-" + name), "local:" + name));
    for (LocalSite l : List.of(a, b)) {
      l.pilots(p -> PilotAgent.of(broker, p.environment(), runner, 200, c::now).run());
    }
    Site s = new Site(name, a, broker, c, new BalancingPeriod(c));
    sites.add(s);
    closing.add(b);
    return new TwoSystems(s, a, b);
  }

  private static BrokerSettings settings(String name, String endpoint) {
    return settings(name).endpoint(endpoint).build();
  }

  /**
   * The settings of this suite's sites, to fill in: reached at {@code local:NAME}, SIMPL utility,
   * every home's jobs run as {@link #ME}, published at once, a heartbeat a second, four pilots
   * waiting at most.
   */
  public static BrokerSettings.Builder settings(String name) {
    return TestSettings.builder(name).endpoint("local:" + name).participation(10_000).utility(Utility.SIMPL).accounts(Map.of(), ME)
        .publishAfter(Duration.ZERO).pilotPendingLimit(Duration.ofSeconds(30)).heartbeat(Duration.ofSeconds(1)).maxPendingPilots(4)
        .pilotCommand(LocalSite.PILOT_COMMAND);
  }

  /** Balancing periods and broker rounds until {@code done}, at most 30 s. */
  public void roundsUntil(String what, BooleanSupplier done) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 30 s: " + what);
      }
      sites.forEach(s -> s.period().run());
      sites.forEach(s -> s.broker().tick());
      Thread.sleep(100);
    }
  }

  public static LocalSite.Job job(Site s, String id) {
    return job(s.local(), id);
  }

  public static LocalSite.Job job(LocalSite system, String id) {
    return system.jobs().stream().filter(j -> j.id().equals(id)).findFirst().orElseThrow();
  }

  @Override
  public void close() {
    sites.forEach(s -> s.local().close());
    closing.forEach(LocalSite::close);
  }
}
