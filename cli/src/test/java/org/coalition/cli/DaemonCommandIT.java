package org.coalition.cli;

import static org.coalition.testbed.Eventually.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.coalition.coordination.zookeeper.ZkFederation;
import org.coalition.testbed.zookeeper.Ensemble;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Two daemons started from site files on a real (in-process) ZooKeeper, read and steered with the client commands. */
class DaemonCommandIT {
  @TempDir Path tmp;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final List<DaemonCommand> daemons = new ArrayList<>();
  private final List<Future<Integer>> exits = new ArrayList<>();
  private Ensemble zk;

  @AfterEach
  void stop() throws Exception {
    daemons.forEach(DaemonCommand::stop);
    for (Future<Integer> f : exits) {
      assertEquals(ExitCodes.OK, f.get(30, TimeUnit.SECONDS), "a daemon stops cleanly");
    }
    threads.shutdownNow();
    if (zk != null) {
      zk.close();
    }
  }

  private static Path secretFile(Path file, String secret) throws Exception {
    Files.writeString(file, secret + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  private Path siteFile(String site, int port) throws Exception {
    return siteFile(site, port, """
        handlers:
          - type: local
            cores: 2
        """);
  }

  private Path siteFile(String site, int port, String handlers) throws Exception {
    Path file = tmp.resolve(site + ".yaml");
    Files.writeString(file, String.format("""
        site: %s
        federation:
          name: t
          zookeeper: %s
          secret-file: %s
        %s
        accounts:
          "*": nobody
        sharing:
          balancing-period: 1s
        http:
          port: %d
          operator-token-file: %s
        spool: %s
        """, site, zk.connectString(), tmp.resolve(site + ".secret"), handlers.strip(), port, tmp.resolve("operator.token"), tmp.resolve("spool-" + site)));
    return file;
  }

  private Path startDaemon(String site) throws Exception {
    return startDaemon(site, null);
  }

  private Path startDaemon(String site, String handlers) throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Path file = handlers == null ? siteFile(site, port) : siteFile(site, port, handlers);
    CommandLine cli = CoalitionCommand.commandLine();
    cli.setErr(new PrintWriter(new StringWriter(), true));
    DaemonCommand daemon = cli.getSubcommands().get("daemon").getCommand();
    daemons.add(daemon);
    exits.add(threads.submit(() -> cli.execute("daemon", "--config", file.toString(), "--tick", "200ms")));
    return file;
  }

  private static CliRun run(String... args) {
    return CliRun.of(args);
  }

  @Test
  void daemonsFromSiteFilesJoinAndAnswerTheClientCommands() throws Exception {
    zk = Ensemble.start(1);
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx--x--x"));
    secretFile(tmp.resolve("alpha.secret"), "alpha-secret-0123456789");
    secretFile(tmp.resolve("beta.secret"), "beta-secret-0123456789");
    Path operator = secretFile(tmp.resolve("operator.token"), "operator-token-0123456789");
    ZkFederation.bootstrap(zk.connectString(), "t", "operator-secret-0123456789",
        Map.of("alpha", "alpha-secret-0123456789", "beta", "beta-secret-0123456789"), Clock.systemUTC());
    Path alpha = startDaemon("alpha");
    startDaemon("beta");

    ObjectMapper json = new ObjectMapper();
    waitFor("alpha sees both sites live", () -> {
      CliRun r = run("sites", "--config", alpha.toString(), "--json");
      if (r.exit() != ExitCodes.OK) {
        return false;
      }
      JsonNode sites = tree(json, r.out()).path("sites");
      return sites.size() == 2 && sites.get(0).path("live").asBoolean() && sites.get(1).path("live").asBoolean();
    });
    CliRun status = run("status", "--config", alpha.toString());
    assertEquals(ExitCodes.OK, status.exit(), status.err());
    assertTrue(status.out().contains("local processes (2 cores, demo site alpha)"), status.out());
    assertTrue(status.out().contains("connected"), status.out());

    CliRun refused = run("participation", "set", "100", "--config", alpha.toString(), "--token-file", tmp.resolve("alpha.secret").toString());
    assertEquals(ExitCodes.UNAVAILABLE, refused.exit());
    assertTrue(refused.err().contains("the daemon refused (FORBIDDEN): the operator token is wrong"), refused.err());
    CliRun set = run("participation", "set", "100", "--config", alpha.toString());
    assertEquals(ExitCodes.OK, set.exit(), set.err());
    assertEquals("alpha: participation level now 100 core-seconds per period\n", set.out());
    waitFor("beta sees alpha's new level", () -> {
      CliRun r = run("sites", "--config", alpha.toString().replace("alpha", "beta"), "--json");
      return r.exit() == 0 && tree(json, r.out()).path("sites").get(0).path("participation").asDouble() == 100;
    });
    CliRun job = run("job", "42", "--config", alpha.toString());
    assertEquals(ExitCodes.UNAVAILABLE, job.exit());
    assertTrue(job.err().contains("(NOT_FOUND): site alpha has no federated job 42"), job.err());
    assertTrue(Files.exists(operator));
  }

  @Test
  void aKubernetesSiteJoinsFromItsSiteFileWithItsClustersCores() throws Exception {
    zk = Ensemble.start(1);
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx--x--x"));
    secretFile(tmp.resolve("west.secret"), "west-secret-0123456789");
    secretFile(tmp.resolve("operator.token"), "operator-token-0123456789");
    ZkFederation.bootstrap(zk.connectString(), "t", "operator-secret-0123456789", Map.of("west", "west-secret-0123456789"), Clock.systemUTC());
    // fabric8's mock API server in CRUD mode; the mixed dispatcher answers /version from the server's version, as an API server does
    Map<ServerRequest, Queue<ServerResponse>> answers = new HashMap<>();
    KubernetesMockServer k8s = new KubernetesMockServer(new Context(), new MockWebServer(), answers, new KubernetesMixedDispatcher(answers), false,
        new VersionInfo.Builder().withMajor("1").withMinor("31").withGitVersion("v1.31.0-mock").build());
    k8s.init();
    try (KubernetesClient admin = k8s.createClient()) {
      admin.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-a").endMetadata().withNewStatus()
          .addToAllocatable("cpu", new Quantity("6")).addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build())
          .create();
      Path kubeconfig = tmp.resolve("west.kubeconfig");
      Files.writeString(kubeconfig, """
          apiVersion: v1
          kind: Config
          clusters: [{name: mock, cluster: {server: "http://%s:%d"}}]
          users: [{name: daemon, user: {token: not-checked-by-the-mock}}]
          contexts: [{name: mock, context: {cluster: mock, user: daemon}}]
          current-context: mock
          """.formatted(k8s.getHostName(), k8s.getPort()));
      Path west = startDaemon("west", """
          handlers:
            - type: kubernetes
              kubeconfig: %s
              namespace: coalition-pilots
              image: registry.example.org/coalition-pilot:0.1
              uids:
                nobody: "65534:65534"
          """.formatted(kubeconfig));
      ObjectMapper json = new ObjectMapper();
      waitFor("west is live with the cluster's 6 cores", () -> {
        CliRun r = run("sites", "--config", west.toString(), "--json");
        JsonNode sites = r.exit() == ExitCodes.OK ? tree(json, r.out()).path("sites") : json.createArrayNode();
        return sites.size() == 1 && sites.get(0).path("live").asBoolean() && sites.get(0).path("cores").asInt() == 6;
      });
      CliRun status = run("status", "--config", west.toString());
      assertEquals(ExitCodes.OK, status.exit(), status.err());
      assertTrue(status.out().contains("Kubernetes v1.31.0-mock (http://" + k8s.getHostName() + ":" + k8s.getPort()
          + "/, namespace coalition-pilots, batch/v1 Jobs)"), status.out());
    } finally {
      daemons.forEach(DaemonCommand::stop);
      k8s.destroy();
    }
  }

  private static JsonNode tree(ObjectMapper json, String text) {
    try {
      return json.readTree(text);
    } catch (IOException e) {
      throw new AssertionError("not JSON: " + text, e);
    }
  }

  @Test
  void aSecretOthersCanReadIsRefused() throws Exception {
    zk = Ensemble.start(1);
    Path secret = secretFile(tmp.resolve("alpha.secret"), "alpha-secret-0123456789");
    Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-r--r--"));
    secretFile(tmp.resolve("operator.token"), "operator-token-0123456789");
    CliRun r = run("daemon", "--config", siteFile("alpha", 1).toString());
    assertEquals(ExitCodes.BAD_INPUT, r.exit());
    assertTrue(r.err().contains("is readable by others; chmod 600"), r.err());
  }
}
