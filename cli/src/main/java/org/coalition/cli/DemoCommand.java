package org.coalition.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import org.coalition.api.DaemonApi;
import org.coalition.api.DaemonHealth;
import org.coalition.config.SiteConfig;
import org.coalition.config.SiteConfigReader;
import org.coalition.coordination.SiteLedger;
import org.coalition.coordination.zookeeper.EmbeddedZooKeeper;
import org.coalition.coordination.zookeeper.ZkCoordination;
import org.coalition.coordination.zookeeper.ZkFederation;
import org.coalition.daemon.Broker;
import org.coalition.daemon.SiteDaemon;
import org.coalition.daemon.base.BrokerSettings;
import org.coalition.daemon.outputs.RunOutputs;
import org.coalition.daemon.pilot.PilotAgent;
import org.coalition.handler.ScriptRunner;
import org.coalition.handler.config.Durations;
import org.coalition.local.LocalSite;
import org.coalition.policy.fairness.Utility;
import org.coalition.zookeeper.policy.Identity;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code coalition demo}: a whole federation in this process with nothing installed. A real
 * ZooKeeper server (in-process), three sites whose batch system runs jobs as local processes
 * ({@link LocalSite}), each with the real broker and balancing period; an uneven workload of
 * short shell jobs; at the end, where jobs ran, their waits, and the ledger.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    header = "Run a federation of three embedded sites on this machine, no cluster needed.",
    description = {
      "Run a federation of three embedded sites on this machine, no cluster needed: an in-process ZooKeeper,",
      "the real broker per site, jobs as local processes. Site north gets most of the work, south some, west",
      "almost none; north's jobs run as pilots at the others. Ends with where jobs ran, waits and the ledger."
    })
final class DemoCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--jobs", defaultValue = "40", description = "Jobs submitted in all (default ${DEFAULT-VALUE}).")
  int jobs;

  @Option(names = "--seconds", defaultValue = "2", description = "Mean run time of a job in seconds (default ${DEFAULT-VALUE}).")
  double seconds;

  @Option(names = "--seed", defaultValue = "1", description = "Random seed of the workload (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--utility", description = "DirectContr utility: ORIG, REL or SIMPL (default: a site file's, ORIG).")
  Utility utility;

  @Option(names = "--timeout", defaultValue = "10m", paramLabel = "DURATION", description = "Give up after this long (default ${DEFAULT-VALUE}).")
  Duration timeout;

  @Option(names = "--log", paramLabel = "FILE", description = "Write the sites' decision log here (default: a file in the demo's temporary folder).")
  Path log;

  @Option(names = "--serve", description = {"Keep the federation running after the first jobs, with each site's dashboard on this machine",
      "and a steady trickle of work, until Ctrl-C."})
  boolean serve;

  @Option(names = "--port", defaultValue = "8443", paramLabel = "PORT",
      description = "With --serve: north's dashboard port (a daemon's default); south and west serve the next two (default ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--json", description = "Print the result as JSON on stdout (for scripts).")
  boolean json;

  @Option(names = "--no-progress", description = "Do not show the progress bar on stderr.")
  boolean noProgress;

  /** The demo's sites: name, cores, share of the workload. */
  private record SiteShape(String name, int cores, double share) {}

  private static final List<SiteShape> SITES = List.of(
      new SiteShape("north", 4, 0.75), new SiteShape("south", 4, 0.2), new SiteShape("west", 4, 0.05));

  /** One job of the result. */
  record JobRow(String home, String id, int cores, String ranAt, double waitSeconds, double runSeconds, int exitCode) {}

  /** One site of the result. */
  record SiteRow(String site, int cores, int submitted, int ranHere, int ranForOthers, double meanWait, double contribution,
      double utility, double priority) {}

  record Result(String utility, List<SiteRow> sites, List<JobRow> jobs, String log) {}

  /**
   * The site file of demo site {@code s}, read as a site admin's is ({@code SiteConfigReader}), so
   * that the demo's settings have the site file's defaults and only these differ: all of every
   * home's jobs run as {@code account}; a participation level no demo period uses up; the utility
   * asked for; jobs published after half a second, periods of 2 s and a heartbeat a second, so
   * that a minute shows the whole of it; pilots cancelled after 30 s pending, four at most. Its
   * federation keys name this process's ZooKeeper; the files they name are not read (the demo's
   * sites connect in this process, without TLS).
   */
  private String siteFile(SiteShape s, String zookeeper, Path dir, String account) {
    return String.join("\n",
        "site: " + s.name,
        "federation:",
        "  name: demo",
        "  zookeeper: " + zookeeper,
        "  identity: " + dir.resolve(s.name + ".p12"),
        "  trust: " + dir.resolve("trust.p12"),
        "handlers:",
        "  - type: local",
        "    cores: " + s.cores,
        "accounts:",
        "  '*': " + account,
        "sharing:",
        "  participation: 100000",
        utility == null ? "" : "  utility: " + utility,
        "  publish-after: 500ms",
        "  balancing-period: 2s",
        "pilots:",
        "  pending-limit: 30s",
        "  heartbeat: 1s",
        "  max-pending: 4",
        "http:",
        "  operator-token-file: " + dir.resolve("operator.token"),
        "spool: " + dir.resolve("spool-" + s.name),
        "");
  }

  @Override
  public Integer call() throws Exception {
    if (jobs < 1 || jobs > 1000) {
      throw new IllegalArgumentException("--jobs must be 1-1000, was " + jobs);
    }
    if (!(seconds > 0) || seconds > 60) {
      throw new IllegalArgumentException("--seconds must be in (0, 60], was " + seconds);
    }
    if (timeout.isZero()) {
      throw new IllegalArgumentException("--timeout must be longer than 0s");
    }
    if (serve) {
      for (int i = 0; i < SITES.size(); i++) {
        int p = port + i;
        if (p < 1 || p > 65_535) {
          throw new IllegalArgumentException("--port must leave room for " + SITES.size() + " ports up to 65535, was " + port);
        }
        Optional<String> taken = SiteChecks.portTaken("127.0.0.1", p, "--port");
        if (taken.isPresent()) {
          throw new IllegalArgumentException("--port: " + taken.get());
        }
      }
    }
    // registered before anything is made: Ctrl-C at any moment leaves no key, process or folder behind (but the log)
    try (ExitTidy tidy = ExitTidy.register("demo")) {
      Path dir = Files.createTempDirectory("coalition-demo-");
      Path logFile = log != null ? log.toAbsolutePath() : dir.resolve("decisions.log");
      tidy.removeFolder(dir, Optional.of(logFile));
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
      Logging.toFile(logFile);
      try {
        return run(tidy, dir, logFile);
      } catch (Exception e) {
        if (tidy.closing()) {
          return ExitCodes.OK; // stopped (Ctrl-C, SIGTERM) while starting or running: its parts were closed under it, which is no error
        }
        throw e;
      }
    }
  }

  private int run(ExitTidy tidy, Path dir, Path logFile) throws Exception {
    var err = spec.commandLine().getErr();
    var out = spec.commandLine().getOut();
    if (!noProgress) {
      err.println("coalition demo: an embedded ZooKeeper and 3 sites (" + SITES.stream().map(s -> s.name + " " + s.cores + " cores")
          .reduce((a, b) -> a + ", " + b).orElse("") + "); " + jobs + " jobs" + (serve ? " first, then more until Ctrl-C" : "")
          + "; decisions logged to " + logFile);
      err.flush();
    }
    Map<String, LocalSite> sites = new LinkedHashMap<>();
    Map<String, SiteDaemon> daemons = new LinkedHashMap<>();
    Clock clock = Clock.systemUTC();
    ScriptRunner runner = new ScriptRunner(dir.resolve("scratch"));
    Files.createDirectories(dir.resolve("scratch"));
    Files.setPosixFilePermissions(dir.resolve("scratch"), PosixFilePermissions.fromString("rwx--x--x"));
    String account = ScriptRunner.unprivilegedAccount();
    EmbeddedZooKeeper zk = tidy.add(EmbeddedZooKeeper.start(Files.createDirectory(dir.resolve("zookeeper"))));
    ZkFederation.bootstrap(zk.connectString(), zk.identity(Identity.operator("demo")), SITES.stream().map(s -> s.name).toList(), clock);
    byte[] secret = new byte[16];
    new SecureRandom().nextBytes(secret);
    byte[] token = HexFormat.of().formatHex(secret).getBytes(StandardCharsets.US_ASCII); // the APIs' operator token: never written
    List<String> pages = new ArrayList<>();
    for (int i = 0; i < SITES.size(); i++) {
      SiteShape s = SITES.get(i);
      ZkCoordination c = tidy.add(ZkFederation.connect(zk.connectString(), zk.identity(new Identity("demo", s.name)), clock,
          ZkFederation.Options.DEFAULT));
      LocalSite site = tidy.add(new LocalSite(s.name, s.cores, runner, c::now));
      SiteConfig file = SiteConfigReader.parse("the demo's site file of " + s.name, siteFile(s, zk.connectString(), dir, account));
      BrokerSettings settings = SiteSettings.of(file, "local:" + s.name, LocalSite.PILOT_COMMAND);
      Broker broker = new Broker(settings, c, site, Optional.of(site), new RunOutputs(dir.resolve("spool-" + s.name)));
      site.pilots(p -> PilotAgent.of(broker, p.environment(), runner, settings.heartbeat().toMillis(), c::now).run());
      sites.put(s.name, site);
      daemons.put(s.name, tidy.add(SiteDaemon.start(broker, Duration.ofMillis(250), file.sharing().balancingPeriod())));
      if (serve) {
        DaemonApi api = tidy.add(DaemonApi.start(broker, "127.0.0.1", port + i, Optional.empty(), token, DaemonHealth.of(c::connected, site::describe)));
        pages.add(s.name + " " + api.uri());
      }
    }
    if (serve) {
      err.println("coalition demo: the sites' dashboards: " + String.join(", ", pages) + " (open one in a browser; Ctrl-C stops the demo"
          + " and removes all it made but the decision log)");
      err.flush();
    }
    Random random = new Random(seed);
    submitAndWait(tidy, sites, account, random, err);
    Thread.sleep(2500); // one more balancing period: every site folds its runs into its ledger
    if (tidy.closing()) {
      return ExitCodes.OK; // stopped before the table: no table of what was cut short
    }
    Result result = result(sites, daemons, logFile);
    if (json) {
      Output.json(out, result);
    } else {
      print(out, result);
    }
    if (serve) {
      trickle(tidy, sites, account, random, err);
    }
    return ExitCodes.OK;
  }

  /**
   * With {@code --serve}, after the first jobs: a job every quarter of {@code --seconds} on
   * average, at the sites in the same shares, until Ctrl-C; north stays over its cores, so its
   * jobs keep moving to the others, on the dashboards. Returns quietly when the demo is stopped.
   */
  private void trickle(ExitTidy tidy, Map<String, LocalSite> sites, String account, Random random, PrintWriter err) {
    err.println("coalition demo: serving; a job every " + Output.number(seconds / 4, 2) + " s on average until Ctrl-C");
    err.flush();
    try {
      for (int n = jobs; !tidy.closing(); n++) {
        submit(sites, account, random, n);
        Thread.sleep((long) (1000 * seconds / 2 * random.nextDouble()));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      if (!tidy.closing()) {
        throw e;
      }
      // stopped while submitting: the sites are closing
    }
  }

  /** Submits the workload over the first seconds (most of it at north), then waits for every job to end. */
  private void submitAndWait(ExitTidy tidy, Map<String, LocalSite> sites, String account, Random random, PrintWriter err)
      throws InterruptedException {
    ProgressBar progress = new ProgressBar(err, "jobs done", !noProgress);
    long deadline = System.nanoTime() + timeout.toNanos();
    int submitted = 0;
    double spread = jobs * seconds / 16; // arrivals spread so that north stays busy
    long began = System.nanoTime();
    while (true) {
      double elapsed = (System.nanoTime() - began) / 1e9;
      while (submitted < jobs && submitted * spread / jobs <= elapsed) {
        submit(sites, account, random, submitted);
        submitted++;
      }
      long done = sites.values().stream().flatMap(s -> s.jobs().stream()).filter(LocalSite.Job::done).count();
      progress.accept((double) done / jobs);
      if (done == jobs || tidy.closing()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("only " + done + " of " + jobs + " jobs ended within " + Durations.format(timeout) + "; see the decision log");
      }
      Thread.sleep(200);
    }
  }

  /** Job {@code n}: at a site picked by the shares, 1 or 2 cores, about {@code --seconds} long. */
  private void submit(Map<String, LocalSite> sites, String account, Random random, int n) {
    SiteShape home = pick(random);
    int cores = 1 + random.nextInt(2);
    double run = seconds * (0.5 + random.nextDouble());
    long limit = Math.max(60, (long) Math.ceil(run * 3));
    sites.get(home.name).submit(account, cores, limit, String.format(Locale.ROOT,
        "#!/bin/sh%nsleep %.2f%necho \"job %d of %s ran on $(hostname) as $(id -un)\"%n", run, n, home.name));
  }

  private static SiteShape pick(Random random) {
    double r = random.nextDouble();
    for (SiteShape s : SITES) {
      if (r < s.share) {
        return s;
      }
      r -= s.share;
    }
    return SITES.get(SITES.size() - 1);
  }

  private Result result(Map<String, LocalSite> sites, Map<String, SiteDaemon> daemons, Path logFile) {
    List<JobRow> rows = new ArrayList<>();
    for (Map.Entry<String, LocalSite> e : sites.entrySet()) {
      Broker broker = daemons.get(e.getKey()).broker();
      for (LocalSite.Job j : e.getValue().jobs()) {
        var remote = broker.finished(j.id());
        if (remote.isPresent()) {
          var f = remote.get();
          rows.add(new JobRow(e.getKey(), j.id(), j.cores(), f.executor(), f.start() - j.submitted(), f.end() - f.start(), f.exitCode()));
        } else {
          rows.add(new JobRow(e.getKey(), j.id(), j.cores(), j.ranAt(), j.start() - j.submitted(), j.end() - j.start(), j.exitCode()));
        }
      }
    }
    Map<String, SiteLedger> ledgers = daemons.values().iterator().next().broker().coordination().ledgers();
    Utility u = daemons.values().iterator().next().broker().settings().utility(); // --utility, or the site file's default
    double now = daemons.values().iterator().next().broker().coordination().now();
    List<SiteRow> siteRows = new ArrayList<>();
    for (String site : sites.keySet()) {
      List<JobRow> mine = rows.stream().filter(r -> r.home().equals(site)).toList();
      SiteLedger l = ledgers.getOrDefault(site, SiteLedger.empty(site));
      siteRows.add(new SiteRow(site, SITES.stream().filter(s -> s.name.equals(site)).findFirst().orElseThrow().cores, mine.size(),
          (int) mine.stream().filter(r -> r.ranAt().equals(site)).count(),
          (int) rows.stream().filter(r -> r.ranAt().equals(site) && !r.home().equals(site)).count(),
          mine.stream().mapToDouble(JobRow::waitSeconds).average().orElse(0),
          l.contribution().get(u).at(now), l.utility().get(u).at(now), l.priority(u, now)));
    }
    return new Result(u.name(), siteRows, rows, logFile.toString());
  }

  private static void print(PrintWriter out, Result r) {
    out.println("Where jobs ran (rows: home site; columns: executing site) and their waits:");
    List<String> names = r.sites().stream().map(SiteRow::site).toList();
    List<String> header = new ArrayList<>(List.of("home"));
    header.addAll(names);
    header.addAll(List.of("jobs", "mean wait s", "max wait s", "failed"));
    List<List<String>> table = new ArrayList<>();
    for (String home : names) {
      List<JobRow> mine = r.jobs().stream().filter(j -> j.home().equals(home)).toList();
      List<String> row = new ArrayList<>(List.of(home));
      for (String at : names) {
        row.add(Long.toString(mine.stream().filter(j -> j.ranAt().equals(at)).count()));
      }
      row.add(Integer.toString(mine.size()));
      row.add(Output.number(mine.stream().mapToDouble(JobRow::waitSeconds).average().orElse(0), 1));
      row.add(Output.number(mine.stream().mapToDouble(JobRow::waitSeconds).max().orElse(0), 1));
      row.add(Long.toString(mine.stream().filter(j -> j.exitCode() != 0).count()));
      table.add(row);
    }
    Output.table(out, header, table);
    out.println();
    out.println("Ledger (DirectContr, utility " + r.utility() + " in " + Utility.valueOf(r.utility()).unit()
        + "; priority = contribution - utility; the highest is served first):");
    List<List<String>> ledger = new ArrayList<>();
    for (SiteRow s : r.sites()) {
      ledger.add(List.of(s.site(), Integer.toString(s.cores()), Integer.toString(s.ranForOthers()), Output.number(s.contribution(), 1),
          Output.number(s.utility(), 1), Output.number(s.priority(), 1)));
    }
    Output.table(out, List.of("site", "cores", "ran for others", "contribution", "utility", "priority"), ledger);
    out.println();
    out.println("Every decision, with its reason: " + r.log());
    out.flush();
  }
}
