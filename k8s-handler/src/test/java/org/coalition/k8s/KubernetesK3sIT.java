package org.coalition.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Predicate;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.PilotState;
import org.coalition.handler.PilotStatus;
import org.coalition.handler.QueueObservation;
import org.coalition.testbed.Eventually;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The Kubernetes handler against a real Kubernetes: k3s in a container, through Testcontainers.
 * Runs where a Docker engine exists and skips itself, saying why, where none does (as on the
 * project's CI machines, which have none; the contract runs there against the mock server in
 * {@link KubernetesContractIT}). Pilots run {@code busybox} as uid 65534.
 */
class KubernetesK3sIT {
  private static final String IMAGE = "rancher/k3s:v1.31.4-k3s1";
  private static final Duration WAIT = Duration.ofMinutes(3);
  private static K3sContainer k3s;
  private static KubernetesHandler handler;

  private static final String NO_DOCKER =
      "skipped: no Docker engine at DOCKER_HOST, and where the project's engine runs (docker/) no k3s image can be had: Debian does not"
          + " package k3s and no registry is reachable; the handler contract ran against fabric8's mock server (KubernetesContractIT)";
  private static boolean docker;

  @BeforeAll
  static void start() {
    docker = DockerClientFactory.instance().isDockerAvailable();
    if (!docker) {
      System.out.println("[k3s] " + NO_DOCKER);
      return;
    }
    k3s = new K3sContainer(DockerImageName.parse(IMAGE));
    k3s.start();
    KubernetesClient client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(k3s.getKubeConfigYaml())).build();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("coalition-pilots").endMetadata().build()).create();
    KubernetesConfig config = KubernetesConfig.of("coalition-pilots", "north", "busybox:1.36",
        Map.of("nobody", new KubernetesConfig.Identity(65534, 65534))).withPendingTimeout(Duration.ofSeconds(20));
    handler = KubernetesHandler.connect(config, client, Clock.systemUTC());
  }

  @BeforeEach
  void needsDocker() {
    assumeTrue(docker, NO_DOCKER); // reported per test, with the reason, rather than a class that silently ran nothing
  }

  @AfterAll
  static void stop() {
    if (handler != null) {
      handler.close();
    }
    if (k3s != null) {
      k3s.stop();
    }
  }

  private static PilotSpec pilot(String name, int cores, String script, boolean held) {
    return new PilotSpec(name, "nobody", cores, 32, 300, "", List.of("/bin/sh", "-c", script), Map.of("COALITION_TEST", "yes"), "/tmp", held);
  }

  private static PilotStatus await(PilotHandle p, String what, Predicate<PilotStatus> wanted) {
    PilotStatus[] last = new PilotStatus[1];
    Eventually.waitFor(() -> p + " " + what + "; last seen " + last[0], WAIT, Duration.ofMillis(500), () -> wanted.test(last[0] = handler.status(p)));
    return last[0];
  }

  @Test
  void describesKubernetes() {
    assertTrue(handler.describe().startsWith("Kubernetes v1.31"), handler.describe());
  }

  @Test
  void aHeldPilotRunsOnceReleasedAsUid65534AndItsExitCodeComesBack() throws Exception {
    PilotHandle p = handler.submit(pilot("k3s-held", 1, "test \"$(id -u)\" = 65534 && test \"$COALITION_TEST\" = yes && exit 3; exit 9", true));
    assertEquals(PilotState.HELD, await(p, "is held", s -> s.state() == PilotState.HELD).state());
    Thread.sleep(3000);
    assertEquals(PilotState.HELD, handler.status(p).state(), "a held pilot stays held");
    handler.release(p);
    PilotStatus ended = await(p, "ends", s -> s.state().finished());
    assertEquals(PilotState.FAILED, ended.state(), ended.toString());
    assertEquals(OptionalInt.of(3), ended.exitCode(), "ran as uid 65534 with its environment: " + ended);
  }

  @Test
  void aRunningPilotIsAllocatedThenCancelled() {
    PilotHandle p = handler.submit(pilot("k3s-running", 1, "sleep 600", false));
    await(p, "runs", s -> s.state() == PilotState.RUNNING);
    QueueObservation o = handler.observe();
    assertTrue(o.allocatedCores() >= 1 && o.totalCores() >= 1 && o.reservationRatio() > 0, o.toString());
    handler.cancel(p);
    assertEquals(PilotState.CANCELLED, await(p, "is cancelled", s -> s.state().finished()).state());
  }

  @Test
  void aPilotThatFitsNowhereNowIsWithdrawnAfterThePendingTimeout() throws Exception {
    QueueObservation o = handler.observe();
    PilotHandle p = handler.submit(pilot("k3s-nofit", o.totalCores(), "exit 0", false)); // system pods already request some CPU
    await(p, "is unschedulable", s -> s.detail().contains("Unschedulable"));
    Thread.sleep(21_000);
    handler.observe();
    PilotStatus s = await(p, "is withdrawn", x -> x.state().finished());
    assertEquals(PilotState.CANCELLED, s.state(), s.toString());
  }
}
