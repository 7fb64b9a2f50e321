package org.coalition.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.coalition.handler.HandlerException;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.PilotState;
import org.coalition.handler.PilotStatus;
import org.coalition.handler.ResourceHandler;
import org.coalition.handler.ResourceHandlerContract;
import org.coalition.testbed.Eventually;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The handler SPI's shared contract, and the Kubernetes handler's own behaviours, against
 * fabric8's Kubernetes mock server in CRUD mode: real HTTP, the real REST paths, watches, merge
 * patches and status subresources, with {@link MockControlPlane} playing the Job controller,
 * the scheduler and the kubelet. One usable node of 8 cores; a cordoned node, a node that is not
 * Ready and a node tainted NoSchedule, which must not count.
 */
class KubernetesContractIT extends ResourceHandlerContract {
  static final String NAMESPACE = "coalition-pilots";
  private KubernetesMockServer server;
  private KubernetesClient admin;
  private MockControlPlane plane;
  private String account;
  private KubernetesConfig.Identity identity;

  private synchronized KubernetesClient cluster() {
    if (server == null) {
      server = MockApiServer.start();
      admin = server.createClient();
      plane = new MockControlPlane(admin);
      plane.addNode("node-a", 8, true, false);
      plane.addNode("node-cordoned", 16, true, true);
      plane.addNode("node-not-ready", 16, false, false);
      admin.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-tainted").endMetadata()
          .withNewSpec().addNewTaint().withKey("node-role.kubernetes.io/control-plane").withEffect("NoSchedule").endTaint().endSpec()
          .withNewStatus().addToAllocatable("cpu", new Quantity("16")).addNewCondition().withType("Ready").withStatus("True").endCondition()
          .endStatus().build()).create();
      boolean root = "root".equals(System.getProperty("user.name"));
      account = root ? "nobody" : System.getProperty("user.name");
      identity = root ? new KubernetesConfig.Identity(65534, 65534) : new KubernetesConfig.Identity(uid("-u"), uid("-g"));
    }
    return admin;
  }

  /** A pilot pod's output is its log ({@code kubectl logs}); the handler takes no output file. */
  @Override
  protected boolean keepsPilotOutput() {
    return false;
  }

  private static long uid(String flag) {
    try {
      Process p = new ProcessBuilder("id", flag).start();
      return Long.parseLong(new String(p.getInputStream().readAllBytes()).strip());
    } catch (IOException e) {
      throw new IllegalStateException("id " + flag, e);
    }
  }

  private KubernetesConfig config() {
    cluster();
    return KubernetesConfig.of(NAMESPACE, "north", "registry.example.org/coalition-pilot:0.1", Map.of(account, identity));
  }

  private KubernetesHandler handler(KubernetesConfig config) {
    return KubernetesHandler.connect(config, server.createClient(), Clock.systemUTC());
  }

  @Override
  protected ResourceHandler connect() {
    return handler(config());
  }

  @Override
  protected String account() {
    cluster();
    return account;
  }

  @Override
  protected String partition() {
    return "";
  }

  @Override
  protected int totalCores() {
    return 8;
  }

  @Override
  protected Path jobsFolder() {
    return Path.of(System.getProperty("java.io.tmpdir"));
  }

  @Override
  protected void emptyQueue() {
    KubernetesClient c = cluster();
    c.batch().v1().jobs().inAnyNamespace().delete();
    c.pods().inAnyNamespace().delete();
    c.secrets().inAnyNamespace().delete();
    Eventually.waitFor(() -> "no pods left; control loop: " + plane.failure(), WAIT, Duration.ofMillis(100),
        () -> c.pods().inAnyNamespace().list().getItems().isEmpty() && c.batch().v1().jobs().inAnyNamespace().list().getItems().isEmpty());
  }

  /** The stand-in's own errors fail the test that was running: a broken stand-in proves nothing. */
  @AfterEach
  void theStandInRanCleanly() {
    Throwable f = plane == null ? null : plane.failure();
    if (f != null) {
      throw new AssertionError("the stand-in's control loop failed: " + f, f);
    }
  }

  @AfterAll
  void stopServer() {
    if (plane != null) {
      plane.close();
      admin.close();
      server.destroy();
    }
  }

  private PilotStatus await(KubernetesHandler h, PilotHandle p, String what, Predicate<PilotStatus> wanted) {
    PilotStatus[] last = new PilotStatus[1];
    Eventually.waitFor(() -> p + " " + what + "; last seen " + last[0] + "; control loop: " + plane.failure(), WAIT, Duration.ofMillis(100),
        () -> wanted.test(last[0] = h.status(p)));
    return last[0];
  }

  @Test
  void describesTheApiServersVersionAddressAndNamespace() {
    try (KubernetesHandler h = handler(config())) {
      assertEquals("Kubernetes " + MockApiServer.VERSION + " (" + server.url("/") + ", namespace " + NAMESPACE + ", batch/v1 Jobs)", h.describe());
    }
  }

  @Test
  void aPilotIsAJobOfOnePodThatNeverRestartsWithItsEnvironmentInASecretTheJobOwns() {
    try (KubernetesHandler h = handler(config())) {
      PilotHandle p = h.submit(new PilotSpec("coalition-pilot-north-7-abc", account, 2, 300, 600, "", List.of("/bin/true"),
          Map.of("COALITION_PILOT_TOKEN", "s3cr3t-token"), "/tmp", true));
      Job job = admin.batch().v1().jobs().inNamespace(NAMESPACE).withName(p.nativeId()).get();
      assertEquals(0, job.getSpec().getBackoffLimit());
      assertEquals(Map.of("app.kubernetes.io/managed-by", "coalition", "coalition.org/site", "north", "coalition.org/pilot", p.nativeId(),
          "coalition.org/account", account), job.getMetadata().getLabels());
      assertEquals("coalition-pilot-north-7-abc", job.getMetadata().getAnnotations().get("coalition.org/pilot-name"));
      var container = job.getSpec().getTemplate().getSpec().getContainers().get(0);
      assertEquals(new Quantity("2"), container.getResources().getRequests().get("cpu"));
      assertEquals(new Quantity("300Mi"), container.getResources().getRequests().get("memory"));
      assertEquals(identity.uid(), job.getSpec().getTemplate().getSpec().getSecurityContext().getRunAsUser());
      assertTrue(job.getSpec().getTemplate().getSpec().getSecurityContext().getRunAsNonRoot());
      assertTrue(!admin.getKubernetesSerialization().asJson(job).contains("s3cr3t-token"), "no token in the Job's spec");
      Secret secret = admin.secrets().inNamespace(NAMESPACE).withName(p.nativeId()).get();
      assertNotNull(secret, "the pilot's environment is in a Secret named as its Job");
      assertEquals(job.getMetadata().getUid(), secret.getMetadata().getOwnerReferences().get(0).getUid(), "the Job owns its Secret");
      h.cancel(p);
    }
  }

  @Test
  void aPilotLargerThanEveryUsableNodeIsRefusedAndLeavesNothingBehind() {
    try (KubernetesHandler h = handler(config())) {
      h.observe();
      HandlerException e = assertThrows(HandlerException.class, () -> h.submit(pilot("too-big", 9, "exit 0", false)));
      assertEquals(HandlerException.Category.REJECTED, e.category(), e.getMessage());
      assertTrue(e.getMessage().contains("largest usable node has 8"), e.getMessage());
      HandlerException unmapped = assertThrows(HandlerException.class, () -> h.submit(new PilotSpec("unmapped", "nobodyelse", 1, 0, 60, "",
          List.of("/bin/true"), Map.of(), "/tmp", false)));
      assertEquals(HandlerException.Category.REJECTED, unmapped.category());
      assertTrue(unmapped.getMessage().contains("has no uid"), unmapped.getMessage());
      assertTrue(admin.secrets().inNamespace(NAMESPACE).list().getItems().isEmpty(), "no Secret left by a refused pilot");
      assertTrue(admin.batch().v1().jobs().inNamespace(NAMESPACE).list().getItems().isEmpty(), "no Job made for a refused pilot");
    }
  }

  @Test
  void aPilotLeftPendingLongerThanThePendingTimeoutIsWithdrawn() throws Exception {
    try (KubernetesHandler h = handler(config().withPendingTimeout(Duration.ofSeconds(2)))) {
      PilotHandle full = h.submit(pilot("full", 8, "sleep 300", false));
      await(h, full, "runs", s -> s.state() == PilotState.RUNNING);
      PilotHandle waiting = h.submit(pilot("waiting", 1, "exit 0", false));
      PilotStatus pending = await(h, waiting, "is unschedulable", s -> s.detail().contains("Unschedulable"));
      assertEquals(PilotState.PENDING, pending.state(), pending.toString());
      h.observe();
      assertEquals(PilotState.PENDING, h.status(waiting).state(), "not withdrawn before its time");
      Thread.sleep(2500);
      h.observe();
      PilotStatus withdrawn = await(h, waiting, "is withdrawn", s -> s.state().finished());
      assertEquals(PilotState.CANCELLED, withdrawn.state(), withdrawn.toString());
      assertTrue(withdrawn.detail().contains("withdrawn: Pending (Unschedulable"), withdrawn.toString());
      assertEquals(PilotState.RUNNING, h.status(full).state(), "a running pilot is never withdrawn");
      Eventually.waitFor(() -> "the withdrawn pilot's pod is deleted", WAIT, Duration.ofMillis(100),
          () -> admin.pods().inNamespace(NAMESPACE).withLabel("coalition.org/pilot", waiting.nativeId()).list().getItems().isEmpty());
    }
  }

  @Test
  void aPilotThatHasAPodIsNotHeldButCanBeCancelled() {
    try (KubernetesHandler h = handler(config())) {
      PilotHandle p = h.submit(pilot("runs", 1, "sleep 300", false));
      await(h, p, "runs", s -> s.state() == PilotState.RUNNING);
      HandlerException e = assertThrows(HandlerException.class, () -> h.hold(p));
      assertEquals(HandlerException.Category.REJECTED, e.category(), e.getMessage());
      assertTrue(e.getMessage().contains("only a pending pilot can be held, it is RUNNING"), e.getMessage());
      assertEquals(PilotState.RUNNING, h.status(p).state(), "a refused hold changes nothing");
      h.cancel(p);
      assertEquals(PilotState.CANCELLED, await(h, p, "is cancelled", s -> s.state().finished()).state());
      HandlerException gone = assertThrows(HandlerException.class, () -> h.hold(new PilotHandle(KubernetesHandler.KIND, "no-such-pilot")));
      assertEquals(HandlerException.Category.NOT_FOUND, gone.category(), gone.getMessage());
    }
  }

  @Test
  void endedPilotsAreDeletedWithTheirSecretsAfterTheRetention() throws Exception {
    try (KubernetesHandler h = handler(config().withFinishedRetention(Duration.ofSeconds(1)))) {
      PilotHandle p = h.submit(pilot("ends", 1, "exit 0", false));
      assertEquals(PilotState.COMPLETED, await(h, p, "ends", s -> s.state().finished()).state());
      Thread.sleep(1500);
      h.observe();
      Eventually.waitFor(() -> "Job and Secret of " + p + " deleted", WAIT, Duration.ofMillis(100),
          () -> admin.batch().v1().jobs().inNamespace(NAMESPACE).withName(p.nativeId()).get() == null
              && admin.secrets().inNamespace(NAMESPACE).withName(p.nativeId()).get() == null);
      assertEquals(PilotState.UNKNOWN, await(h, p, "is forgotten", s -> s.state() == PilotState.UNKNOWN).state());
    }
  }

  @Test
  void aCancelledPilotStaysCancelledForANewHandler() {
    PilotHandle p;
    try (KubernetesHandler h = handler(config())) {
      p = h.submit(pilot("cancelled", 1, "sleep 300", false));
      await(h, p, "runs", s -> s.state() == PilotState.RUNNING);
      h.cancel(p);
    }
    try (KubernetesHandler again = handler(config())) {
      PilotStatus s = await(again, p, "is cancelled", x -> x.state().finished());
      assertEquals(PilotState.CANCELLED, s.state(), "a restarted daemon reads the end from the Job: " + s);
      HandlerException e = assertThrows(HandlerException.class, () -> again.release(p));
      assertEquals(HandlerException.Category.REJECTED, e.category());
    }
  }

  @Test
  void anUnreachableApiServerIsUnavailableAndSaysWhere() throws Exception {
    int port;
    try (var socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    var client = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
        .withMasterUrl("http://127.0.0.1:" + port).withRequestRetryBackoffLimit(0).build()).build();
    HandlerException e = assertThrows(HandlerException.class, () -> KubernetesHandler.connect(config(), client, Clock.systemUTC()));
    assertEquals(HandlerException.Category.UNAVAILABLE, e.category(), e.getMessage());
    assertTrue(e.getMessage().contains("127.0.0.1:" + port), e.getMessage());
  }

  @Test
  void anApiServerThatAnswersNonsenseOrRefusesIsAnErrorNamingWhatAndWhere() {
    KubernetesMockServer notKubernetes = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(),
        false);
    notKubernetes.init();
    try {
      HandlerException e = assertThrows(HandlerException.class, () -> KubernetesHandler.connect(config(), notKubernetes.createClient(),
          Clock.systemUTC()));
      assertEquals(HandlerException.Category.PROTOCOL, e.category(), e.getMessage());
      assertTrue(e.getMessage().contains("names no Kubernetes version; is this the address of a Kubernetes API server?"), e.getMessage());
    } finally {
      notKubernetes.destroy();
    }
    KubernetesMockServer odd = MockApiServer.start();
    try (KubernetesHandler h = KubernetesHandler.connect(config(), odd.createClient(), Clock.systemUTC())) {
      odd.expect().get().withPath("/api/v1/nodes?limit=500").andReturn(200, "<html>not a node list</html>").once();
      HandlerException garbled = assertThrows(HandlerException.class, h::observe);
      assertEquals(HandlerException.Category.PROTOCOL, garbled.category(), garbled.getMessage());
      assertTrue(garbled.getMessage().contains("list /api/v1/nodes: the API server's answer is not a NodeList"), garbled.getMessage());
      odd.expect().get().withPath("/api/v1/nodes?limit=500").andReturn(403, "{\"kind\":\"Status\",\"message\":\"nodes is forbidden\"}").once();
      HandlerException refused = assertThrows(HandlerException.class, h::observe);
      assertEquals(HandlerException.Category.AUTHENTICATION, refused.category(), refused.getMessage());
      assertTrue(refused.getMessage().contains("HTTP 403") && refused.getMessage().contains("nodes is forbidden"), refused.getMessage());
      odd.expect().post().withPath("/api/v1/namespaces/" + NAMESPACE + "/secrets").andReturn(403,
          "{\"kind\":\"Status\",\"code\":403,\"message\":\"exceeded quota: pilots, requested: count/secrets=1\"}").once();
      HandlerException quota = assertThrows(HandlerException.class, () -> h.submit(pilot("over-quota", 1, "exit 0", false)));
      assertEquals(HandlerException.Category.REJECTED, quota.category(), "a quota's refusal is not a credentials problem: " + quota.getMessage());
      assertEquals(0, h.observe().pendingJobs(), "the next observation works again");
    } finally {
      odd.destroy();
    }
  }
}
