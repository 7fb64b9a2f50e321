package org.coalition.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.coalition.coordination.zookeeper.ZkFederation;
import org.coalition.coordination.zookeeper.ZkTls;
import org.coalition.testbed.DaemonApi;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Ports;
import org.coalition.testbed.zookeeper.Ensemble;
import org.coalition.zookeeper.policy.Identity;

/**
 * A federation the end-to-end tests start: real ZooKeeper servers (TLS, the federation bootstrapped
 * with its members), and a daemon process per member, each started from a site file of its own
 * and answering on a port of its own. The daemons' logs are kept in {@code target/e2e/SITE.log}, or a folder the test names.
 */
final class Federation implements AutoCloseable {
  static final String NAME = "e2e";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path tmp;
  private final Path logs;
  private final Ensemble zk;
  private final List<String> members;
  private final Map<String, Integer> ports = new HashMap<>();
  private final Map<String, ProcessBuilder> commands = new HashMap<>();
  private final Map<String, Process> daemons = new HashMap<>();
  private final Map<String, Long> participation = new HashMap<>();
  private final DaemonApi api = new DaemonApi();

  private Federation(Path tmp, Path logs, Ensemble zk, List<String> members) {
    this.tmp = tmp;
    this.logs = logs;
    this.zk = zk;
    this.members = List.copyOf(members);
  }

  /** A federation of {@code members} in an ensemble of {@code servers}, each member a free port and an empty log; no daemon yet. */
  static Federation start(Path tmp, int servers, List<String> members) throws Exception {
    return start(tmp, LOGS, servers, members);
  }

  /** As {@link #start(Path, int, List)}, the daemons' logs in {@code logs}: a test that runs beside others keeps its own. */
  static Federation start(Path tmp, Path logs, int servers, List<String> members) throws Exception {
    Ensemble zk = Ensemble.start(servers);
    Federation f = new Federation(tmp, logs, zk, members);
    try {
      ZkFederation.bootstrap(zk.connectString(), new ZkTls(zk.identity(Identity.operator(NAME)), zk.trustStore()), members, Clock.systemUTC());
      Path token = tmp.resolve("operator.token");
      Files.writeString(token, "e2e-operator-token-0123456789\n");
      Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
      for (String site : members) {
        f.ports.put(site, Ports.free());
        Files.deleteIfExists(f.logOf(site));
      }
      return f;
    } catch (Exception e) {
      zk.close();
      throw e;
    }
  }

  /** A BILB participation level (core-seconds) so high that it bounds no site's sharing: what a site starts with here. */
  static final long ANY_LOAD = 1_000_000;

  /** Sets {@code site}'s BILB participation level, for the daemon started next: how much foreign load it takes or sends. */
  void participation(String site, long level) {
    participation.put(site, level);
  }

  Ensemble zk() {
    return zk;
  }

  /** Where the daemons' logs are kept: {@code target/e2e/SITE.log}. */
  private static final Path LOGS = Path.of("target", "e2e");

  /** {@code site}'s daemon's log, of a federation started with the default logs folder. */
  static Path log(String site) {
    return LOGS.resolve(site + ".log");
  }

  /** {@code site}'s daemon's log, in this federation's logs folder. */
  Path logOf(String site) {
    return logs.resolve(site + ".log");
  }

  /** The built jar, copied where every node of the testbed sees it at one path: the jobs folder of {@code instance} (the chroot's too). */
  static Path nodeVisibleJar(Instance instance) throws IOException {
    Path built = Path.of("target", "coalition.jar").toAbsolutePath();
    if (!Files.isRegularFile(built)) {
      throw new IllegalStateException(built + " is missing: this test runs after 'mvn package' (failsafe's integration-test phase)");
    }
    Path dir = Files.createDirectories(instance.path("jobs.dir").resolve("coalition-e2e"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path jar = dir.resolve("coalition.jar");
    Files.copy(built, jar, StandardCopyOption.REPLACE_EXISTING);
    Files.setPosixFilePermissions(jar, PosixFilePermissions.fromString("rw-r--r--"));
    return jar;
  }

  /** A site file's handler entry for a testbed Slurm cluster, named after the cluster. */
  static String slurmHandler(Instance slurm) {
    return String.format("""
          - type: slurm
            name: %s
            url: %s
            observer: %s
            jwt-key: %s
            results: %s
            scontrol: %s
        """, slurm.get("cluster"), slurm.get("rest.url"), slurm.get("rest.user"), slurm.path("jwt.key.file"), slurm.path("results.dir"),
        slurm.tool("scontrol"));
  }

  /** A site file's handler entry for the testbed's Grid Engine cell, through its DRMAA library. */
  static String gridEngineHandler(Instance sge) {
    return String.format("""
          - type: gridengine
            library: %s
            qstat: %s
            results: %s
            qmaster-spool: %s
        """, sge.path("drmaa.library"), sge.tool("qstat"), sge.path("results.dir"), sge.path("spool"));
  }

  /** What a Grid Engine site's daemon needs in its environment: the cell, and its DRMAA library loaded first. */
  static Map<String, String> gridEngineEnvironment(Instance sge) {
    return Map.of("SGE_ROOT", sge.get("sge.root"), "SGE_CELL", sge.get("sge.cell"), "LD_PRELOAD", sge.path("drmaa.library").toString());
  }

  /**
   * Starts {@code site}'s daemon with the site file's {@code handlers} section, foreign jobs run as
   * {@code account}, pilots (running {@code jar}) sent to {@code partition}, {@code extra} appended
   * to its file and {@code environment} added to its own.
   */
  void startDaemon(String site, Path jar, String handlers, String account, String partition, Map<String, String> environment, String extra)
      throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path file = tmp.resolve(site + ".yaml");
    Files.writeString(file, String.format("""
        site: %s
        federation:
          name: %s
          zookeeper: %s
          identity: %s
          trust: %s
          session-timeout: 6s
        handlers:
        %saccounts:
          "*": %s
        sharing:
          exposure-threshold: 0.7
          participation: %d
          balancing-period: 2s
          utility: simpl
          publish-after: 2s
        pilots:
          partition: %s
          pending-limit: 2m
          heartbeat: 2s
          max-pending: 4
          command: [%s, -Xmx96m, -XX:+UseSerialGC, -XX:TieredStopAtLevel=1, -XX:-UsePerfData, -jar, %s, pilot]
        http:
          port: %d
          operator-token-file: %s
        spool: %s
        %s""", site, NAME, zk.connectString(), zk.identity(new Identity(NAME, site)), zk.trustStore(), handlers, account,
        participation.getOrDefault(site, ANY_LOAD), partition, java, jar, ports.get(site), tmp.resolve("operator.token"), tmp.resolve("spool-" + site), extra));
    Files.createDirectories(logs);
    // The JIT's quick tier and the serial collector, as the pilots above and the container tier's daemons: these tests check
    // what the daemons do, not how fast (the benchmarks run them as shipped), and on CI's two cores, with the testbed and the
    // container tier beside them, C2's compiler threads and G1's take CPU the other tests wait for (docs/testbed.md).
    ProcessBuilder daemon = new ProcessBuilder(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData", "-jar",
        Path.of("target", "coalition.jar").toAbsolutePath().toString(), "daemon", "--config", file.toString(), "--tick", "500ms");
    daemon.environment().putAll(environment);
    daemon.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(logOf(site).toFile()));
    commands.put(site, daemon);
    daemons.put(site, daemon.start());
  }

  /** Stops {@code site}'s daemon, by SIGKILL or, as an upgrade does, SIGTERM; returns its exit code. */
  int stop(String site, boolean kill) throws InterruptedException {
    Process daemon = daemons.get(site);
    if (kill) {
      daemon.destroyForcibly();
    } else {
      daemon.destroy();
    }
    return daemon.waitFor();
  }

  /** Whether a line of {@code site}'s daemon's log holds both parts. */
  boolean logged(String site, String one, String other) {
    try {
      return Files.readString(logOf(site)).lines().anyMatch(l -> l.contains(one) && l.contains(other));
    } catch (IOException e) {
      throw new AssertionError("the log of " + site + "'s daemon: " + e.getMessage(), e);
    }
  }

  /** Starts {@code site}'s daemon again, from the same site file. */
  void restart(String site) throws IOException {
    daemons.put(site, commands.get(site).start());
  }

  /**
   * How long daemons just started may take to answer with every site live: 90 s. In .ci/run's step 3,
   * beside the container tier (load average about 20 on two cores), a daemon's JVM was seen to take
   * 39 s to its first line and 63 s to serve (2026-12-01, docs/testbed.md); 60 s was too short there.
   */
  static final Duration START = Duration.ofSeconds(90);

  /**
   * Waits until each of {@code sites}' daemons answers with every member live: up to {@link #START}
   * for the first, as long again for each further one.
   */
  void awaitLive(List<String> sites) {
    for (String site : sites) {
      Eventually.waitFor(site + "'s daemon answers with all " + members.size() + " sites live", START,
          () -> liveSites(site) == members.size());
    }
  }

  /** The port {@code site}'s daemon answers on (127.0.0.1). */
  int port(String site) {
    return ports.get(site);
  }

  /** A GET of {@code site}'s daemon's API: its JSON, null for 404. */
  JsonNode get(String site, String path) throws IOException, InterruptedException {
    return api.get(ports.get(site), path);
  }

  /** How many sites {@code site}'s daemon sees live; -1 while it does not answer. */
  int liveSites(String site) {
    return api.liveSites(ports.get(site));
  }

  /** A job as its home's daemon shows it, or null if it never published it. */
  JsonNode jobOrNull(String site, String id) throws IOException, InterruptedException {
    return get(site, "v1/jobs/" + id);
  }

  /** As {@link #jobOrNull}, an empty object for none and while the daemon does not answer. */
  JsonNode job(String site, String id) {
    return orEmpty(site, "v1/jobs/" + id);
  }

  /** The daemon's status, or an empty object while it does not answer. */
  JsonNode status(String site) {
    return orEmpty(site, "v1/status");
  }

  private JsonNode orEmpty(String site, String path) {
    try {
      JsonNode j = get(site, path);
      return j == null ? JSON.createObjectNode() : j;
    } catch (IOException | InterruptedException e) {
      return JSON.createObjectNode();
    }
  }

  /** Stops every daemon (SIGTERM) and waits for each, then the ensemble. */
  @Override
  public void close() throws IOException {
    for (Process p : daemons.values()) {
      p.destroy();
    }
    try {
      for (Process p : daemons.values()) {
        p.waitFor();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      zk.close();
    }
  }
}
