package org.coalition.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.coalition.coordination.zookeeper.ZkFederation;
import org.coalition.coordination.zookeeper.ZkTls;
import org.coalition.testbed.Command;
import org.coalition.testbed.DaemonApi;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Ports;
import org.coalition.testbed.Testbed;
import org.coalition.testbed.zookeeper.Ensemble;
import org.coalition.zookeeper.policy.Identity;

/**
 * Real Slurm clusters of the testbed federated as a site admin would: a three-server ZooKeeper
 * ensemble over TLS, one {@code coalition daemon} process per cluster started from a site file,
 * pilots running the shipped jar from a folder every cluster's nodes see. Each daemon logs one
 * JSON object per line ({@code COALITION_LOG_FORMAT=json}) to {@code SITE.log} in the run's folder,
 * where {@link DecisionLog} reads the decisions back. The folder must be the run's own: logs are
 * appended to, and a spool left by another run would be taken back as this one's.
 */
final class TestbedFederation implements AutoCloseable {
  static final String FEDERATION = "bench";
  /** Where the pilots put their runs' folders (each site's {@code pilots.command} names it). */
  static final Path PILOT_SCRATCH = Path.of("/tmp");

  /**
   * How the sites' daemons run: the {@code sharing} and {@code pilots} settings the benchmark
   * varies; with {@code batchSystemEvicts}, pilots go to the testbed's preemptible partition
   * ({@code pilots.partition}) and Slurm, not the daemons, takes cores back for local jobs
   * ({@code sharing.eviction: batch-system}).
   */
  record Settings(double exposureThreshold, Duration publishAfter, int maxPendingPilots, Duration idleExit, Duration extraTime,
      boolean batchSystemEvicts) {}

  /** One member: its name, its cluster, its daemon's API port and log. */
  record Site(String name, Instance cluster, int port, Path log) {}

  private final Map<String, Site> sites = new LinkedHashMap<>();
  private final Map<String, Process> daemons = new LinkedHashMap<>();
  private final DaemonApi api = new DaemonApi();
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
  private final Ensemble zk;
  private final Path dir;
  private final Settings settings;
  /** Stops the daemons and the servers if this process is stopped before {@link #close}: they are processes of their own. */
  private final Thread orphans = new Thread(this::stopProcesses, "bench-processes-stop");

  private TestbedFederation(Ensemble zk, Path dir, Settings settings) {
    this.zk = zk;
    this.dir = dir;
    this.settings = settings;
    Runtime.getRuntime().addShutdownHook(orphans);
  }

  /**
   * Starts the ensemble, creates the federation and starts one daemon per entry of {@code members}
   * (site name to testbed instance), each running {@code jar}; waits until every daemon sees all
   * sites live. {@code dir} keeps the site files, spools and logs.
   */
  static TestbedFederation start(Map<String, String> members, Path jar, Path dir, Settings settings) throws Exception {
    Map<String, Instance> clusters = new LinkedHashMap<>();
    members.forEach((site, instance) -> clusters.put(site, Testbed.require(instance)));
    TestbedFederation f = new TestbedFederation(Ensemble.start(3), dir, settings);
    try {
      ZkFederation.bootstrap(f.zk.connectString(), new ZkTls(f.zk.identity(Identity.operator(FEDERATION)), f.zk.trustStore()),
          List.copyOf(members.keySet()), Clock.systemUTC());
      Path token = dir.resolve("operator.token");
      Files.writeString(token, "bench-operator-token-0123456789\n");
      Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
      Path pilotJar = nodeVisible(jar, clusters.values());
      for (Map.Entry<String, Instance> e : clusters.entrySet()) {
        Site s = new Site(e.getKey(), e.getValue(), freePort(), dir.resolve(e.getKey() + ".log"));
        f.sites.put(s.name(), s);
        f.daemons.put(s.name(), f.startDaemon(s, jar, pilotJar, dir, token, settings));
      }
      for (String site : members.keySet()) {
        Eventually.waitFor(site + "'s daemon sees all " + members.size() + " sites live (its log: " + dir.resolve(site + ".log") + ")",
            Duration.ofSeconds(90), () -> f.liveSites(site) == members.size());
      }
      return f;
    } catch (Exception | Error e) {
      f.close();
      throw e;
    }
  }

  /** How the daemons run. */
  Settings settings() {
    return settings;
  }

  Site site(String name) {
    return sites.get(name);
  }

  List<Site> sites() {
    return List.copyOf(sites.values());
  }

  /** GET {@code path} of {@code site}'s API; null for 404. */
  JsonNode get(String site, String path) throws IOException, InterruptedException {
    return api.get(sites.get(site).port(), path);
  }

  private int liveSites(String site) {
    return api.liveSites(sites.get(site).port());
  }

  private Process startDaemon(Site s, Path jar, Path pilotJar, Path dir, Path token, Settings settings) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Instance slurm = s.cluster();
    Path file = dir.resolve(s.name() + ".yaml");
    Files.writeString(file, String.format("""
        site: %s
        federation:
          name: %s
          zookeeper: %s
          identity: %s
          trust: %s
          session-timeout: 6s
        handlers:
          - type: slurm
            name: %s
            url: %s
            observer: %s
            jwt-key: %s
            results: %s
            scontrol: %s
        accounts:
          "*": %s
        sharing:
          exposure-threshold: %s
          participation: 1000000
          balancing-period: 2s
          utility: simpl
          publish-after: %dms
          eviction: %s
        pilots:
          partition: %s
          pending-limit: 2m
          heartbeat: 2s
          max-pending: %d
          idle-exit: %dms
          extra-time: %ds
          command: [%s, -Xmx96m, -XX:+UseSerialGC, -XX:TieredStopAtLevel=1, -XX:-UsePerfData, -jar, %s, pilot, --scratch, %s]
        http:
          port: %d
          operator-token-file: %s
        spool: %s
        """, s.name(), FEDERATION, zk.connectString(), zk.identity(new Identity(FEDERATION, s.name())), zk.trustStore(),
        slurm.get("cluster"), slurm.get("rest.url"), slurm.get("rest.user"), slurm.path("jwt.key.file"), slurm.path("results.dir"),
        slurm.tool("scontrol"), slurm.get("user"), settings.exposureThreshold(), settings.publishAfter().toMillis(),
        settings.batchSystemEvicts() ? "batch-system" : "daemon", slurm.get(settings.batchSystemEvicts() ? "pilots.partition" : "partition"),
        settings.maxPendingPilots(), settings.idleExit().toMillis(), settings.extraTime().toSeconds(), java, pilotJar, PILOT_SCRATCH, s.port(), token,
        dir.resolve("spool-" + s.name())));
    ProcessBuilder daemon = new ProcessBuilder(java, "-Xmx256m", "-jar", jar.toString(), "daemon", "--config", file.toString(), "--tick", "500ms");
    daemon.environment().put("COALITION_LOG_FORMAT", "json");
    return daemon.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(s.log().toFile())).start();
  }

  /**
   * {@code jar} copied where the nodes of every cluster see it: the jobs folder of the Slurm 24.11
   * cluster, which runs in the Debian 13 chroot, is seen from the host too.
   */
  private static Path nodeVisible(Path jar, Iterable<Instance> clusters) throws IOException {
    Instance chrooted = null;
    for (Instance c : clusters) {
      if (chrooted == null || c.name().startsWith("slurm24")) {
        chrooted = c;
      }
    }
    Path dir = Files.createDirectories(chrooted.path("jobs.dir").resolve("coalition-bench"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path copy = dir.resolve("coalition.jar");
    Files.copy(jar, copy, StandardCopyOption.REPLACE_EXISTING);
    Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-r--r--"));
    return copy;
  }

  /** A daemon's API port: drawn where no other test JVM draws it and no outgoing connection takes it (testbed's {@link Ports}). */
  private static int freePort() {
    return Ports.free();
  }

  /** Stops the daemons, cancels what the bench's user left in every cluster, stops the ensemble. */
  @Override
  public void close() throws IOException {
    try {
      Runtime.getRuntime().removeShutdownHook(orphans);
    } catch (IllegalStateException e) {
      // shutting down already: the hook runs
    }
    saveMetrics();
    stopDaemons();
    for (Site s : sites.values()) {
      Command.of(s.cluster().tool("scancel"), "-u", s.cluster().get("user")).run();
    }
    zk.close();
  }

  /** Keeps each daemon's {@code /metrics} beside its log ({@code NAME.metrics}): its round's steps' times, its claims. */
  private void saveMetrics() {
    for (Site s : sites.values()) {
      try {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + "/metrics"))
            .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        Files.writeString(dir.resolve(s.name() + ".metrics"), r.body());
      } catch (IOException e) {
        System.err.println("coalition: the metrics of " + s.name() + " were not kept: " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void stopDaemons() {
    daemons.values().forEach(Process::destroy);
    for (Process p : daemons.values()) {
      p.onExit().join();
    }
  }

  private void stopProcesses() {
    stopDaemons();
    try {
      zk.close();
    } catch (IOException e) {
      System.err.println("coalition: the ZooKeeper servers did not stop cleanly: " + e.getMessage());
    }
  }
}
