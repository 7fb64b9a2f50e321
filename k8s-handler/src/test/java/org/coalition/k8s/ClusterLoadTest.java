package org.coalition.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.List;
import java.util.Map;
import org.coalition.handler.HandlerException;
import org.coalition.handler.QueueObservation;
import org.coalition.handler.RequestCost;
import org.junit.jupiter.api.Test;

class ClusterLoadTest {
  private static Node node(String name, String cpu, boolean ready, boolean cordoned, String taintEffect) {
    NodeBuilder b = new NodeBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec().withUnschedulable(cordoned).endSpec()
        .withNewStatus().addToAllocatable("cpu", new Quantity(cpu)).addNewCondition().withType("Ready").withStatus(ready ? "True" : "False")
        .endCondition().endStatus();
    if (taintEffect != null) {
      b.editSpec().addNewTaint().withKey("k").withEffect(taintEffect).endTaint().endSpec();
    }
    return b.build();
  }

  private static Pod pod(String name, String node, String phase, String cpu, Long deadline) {
    return new PodBuilder().withNewMetadata().withName(name).withNamespace("ns").endMetadata().withNewSpec().withNodeName(node)
        .withActiveDeadlineSeconds(deadline).addNewContainer().withName("c").withNewResources().addToRequests("cpu", new Quantity(cpu))
        .endResources().endContainer().endSpec().withNewStatus().withPhase(phase).endStatus().build();
  }

  private static QueueObservation observe(List<Node> nodes, List<Pod> pods, List<Job> jobs) {
    return ClusterLoad.of(0, nodes, pods, jobs, 3600, new RequestCost(3, 10)).observation();
  }

  @Test
  void onlyReadyUncordonedUntaintedNodesCountAndAllocatableRoundsDown() {
    var load = ClusterLoad.of(0, List.of(node("a", "3920m", true, false, null), node("b", "4", true, false, "PreferNoSchedule"),
        node("cordoned", "8", true, true, null), node("down", "8", false, false, null), node("cp", "8", true, false, "NoSchedule"),
        node("evicting", "8", true, false, "NoExecute")), List.of(), List.of(), 3600, RequestCost.NONE);
    assertEquals(3 + 4, load.observation().totalCores(), "a PreferNoSchedule taint still takes pods");
    assertEquals(4, load.largestNodeCores());
  }

  @Test
  void theMostGpusOfOneUsableNodeAreWhatAPilotMayAskFor() {
    Node gpus2 = node("g2", "8", true, false, null);
    gpus2.getStatus().getAllocatable().put(ClusterLoad.GPU, new Quantity("2"));
    Node cordoned = node("g8", "8", true, true, null);
    cordoned.getStatus().getAllocatable().put(ClusterLoad.GPU, new Quantity("8"));
    var load = ClusterLoad.of(0, List.of(node("a", "4", true, false, null), gpus2, cordoned), List.of(), List.of(), 3600, RequestCost.NONE);
    assertEquals(2, load.largestNodeGpus(), "the cordoned node's 8 do not count");
    assertEquals(0, ClusterLoad.of(0, List.of(node("a", "4", true, false, null)), List.of(), List.of(), 3600, RequestCost.NONE).largestNodeGpus());
  }

  @Test
  void requestsOfLivePodsOnUsableNodesRoundUpPerNodeAndEndedPodsAreFree() {
    QueueObservation o = observe(List.of(node("a", "4", true, false, null), node("b", "4", true, false, null), node("cordoned", "8", true, true, null)),
        List.of(pod("p1", "a", "Running", "250m", null), pod("p2", "a", "Running", "1", null), pod("p3", "b", "Running", "100m", null),
            pod("done", "b", "Succeeded", "4", null), pod("failed", "b", "Failed", "4", null), pod("elsewhere", "cordoned", "Running", "8", null)),
        List.of());
    assertEquals(2 + 1, o.allocatedCores(), "a: 1250m is 2 cores, b: 100m is 1 core; the cordoned node's pod is not counted");
    assertEquals(3.0 / 8, o.reservationRatio(), 1e-9);
    assertEquals(0, o.pendingJobs());
  }

  @Test
  void unboundPodsAndSuspendedJobsArePendingWorkWithTheirCoreSeconds() {
    Job suspended = new JobBuilder().withNewMetadata().withName("held").withNamespace("ns").endMetadata().withNewSpec().withSuspend(true)
        .withParallelism(2).withActiveDeadlineSeconds(600L).withNewTemplate().withNewSpec().addNewContainer().withName("c").withNewResources()
        .addToRequests("cpu", new Quantity("3")).endResources().endContainer().endSpec().endTemplate().endSpec().build();
    Job running = new JobBuilder(suspended).editMetadata().withName("running").endMetadata().editSpec().withSuspend(false).endSpec().build();
    QueueObservation o = observe(List.of(node("a", "4", true, false, null)),
        List.of(pod("waits", null, "Pending", "1500m", 120L), pod("tiny", null, "Pending", "10m", null)), List.of(suspended, running));
    assertEquals(2 + 2, o.pendingJobs(), "two unbound pods, and a suspended Job of parallelism 2");
    assertEquals(2 * 120 + 1 * 3600 + 2 * 3 * 600, o.pendingCoreSeconds(), 1e-9);
    assertEquals(1, o.partitions().size());
  }

  @Test
  void initContainersAndOverheadCountAsTheSchedulerCountsThem() {
    Pod p = pod("p", "a", "Running", "500m", null);
    p.getSpec().setInitContainers(List.of(new ContainerBuilder().withName("init").withNewResources()
        .addToRequests("cpu", new Quantity("2")).endResources().build()));
    p.getSpec().setOverhead(Map.of("cpu", new Quantity("250m")));
    assertEquals(2250, ClusterLoad.cpuMillis(p.getSpec(), p));
    p.getSpec().setInitContainers(List.of(new ContainerBuilder().withName("sidecar").withRestartPolicy("Always")
        .withNewResources().addToRequests("cpu", new Quantity("1")).endResources().build(), new ContainerBuilder()
        .withName("init").withNewResources().addToRequests("cpu", new Quantity("500m")).endResources().build()));
    assertEquals(1750, ClusterLoad.cpuMillis(p.getSpec(), p), "a sidecar (1) runs beside the containers (0.5) and the later init container (0.5),"
        + " plus 0.25 overhead");
  }

  @Test
  void anUnreadableQuantityIsAProtocolErrorNamingThePod() {
    HandlerException e = assertThrows(HandlerException.class, () -> observe(List.of(node("a", "4", true, false, null)),
        List.of(pod("garbled", "a", "Running", "lots", null)), List.of()));
    assertEquals(HandlerException.Category.PROTOCOL, e.category());
    assertTrue(e.getMessage().contains("ns/garbled") && e.getMessage().contains("'lots'"), e.getMessage());
  }
}
