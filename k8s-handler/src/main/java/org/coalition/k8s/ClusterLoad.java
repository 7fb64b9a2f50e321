package org.coalition.k8s;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.PartitionLoad;
import org.coalition.handler.QueueObservation;
import org.coalition.handler.RequestCost;

/**
 * A cluster's load from its nodes, pods and Jobs.
 *
 * <ul>
 *   <li>Usable nodes: Ready, not cordoned, and without a NoSchedule or NoExecute taint. A node's
 *       cores are its allocatable CPU rounded down to whole cores.
 *   <li>Allocated cores: per usable node, the CPU requests of its pods that have not ended (the
 *       larger of the containers' sum and the largest init container, sidecars counted with both,
 *       plus the pod's overhead),
 *       rounded up to whole cores, at most the node's cores. Requests, not use: that is what the
 *       scheduler places by, so it is what decides whether a pilot fits.
 *   <li>Pending work: pods not yet bound to a node, and suspended Jobs (held pilots, and Jobs a
 *       queueing layer such as Kueue keeps suspended), each with its cores (at least 1) times
 *       its time limit: {@code activeDeadlineSeconds}, or the configured default.
 * </ul>
 */
final class ClusterLoad {
  private static final Set<String> NO_SCHEDULE = Set.of("NoSchedule", "NoExecute");
  private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

  /** The GPUs a node offers, as the NVIDIA device plugin names them: the extended resource a pilot asks for. */
  static final String GPU = "nvidia.com/gpu";

  /**
   * The observation, the most cores one usable node has (a pilot larger than that can never
   * start), and the most GPUs one usable node has ({@value #GPU} allocatable).
   */
  record Load(QueueObservation observation, int largestNodeCores, int largestNodeGpus) {}

  private ClusterLoad() {}

  static Load of(double at, List<Node> nodes, List<Pod> pods, List<Job> jobs, long defaultTimeLimitSeconds, RequestCost cost) {
    Map<String, Integer> cores = new HashMap<>();
    int gpus = 0;
    for (Node n : nodes) {
      if (usable(n)) {
        Map<String, Quantity> allocatable = n.getStatus() == null || n.getStatus().getAllocatable() == null ? Map.of()
            : n.getStatus().getAllocatable();
        Quantity cpu = allocatable.get("cpu");
        cores.put(n.getMetadata().getName(), cpu == null ? 0 : millis(cpu, n).divide(THOUSAND, 0, RoundingMode.FLOOR).intValueExact());
        Quantity gpu = allocatable.get(GPU);
        gpus = Math.max(gpus, gpu == null ? 0 : millis(gpu, n).divide(THOUSAND, 0, RoundingMode.FLOOR).min(BigDecimal.valueOf(1 << 20))
            .intValueExact());
      }
    }
    Map<String, Long> requested = new HashMap<>();
    int pendingJobs = 0;
    double pendingCoreSeconds = 0;
    for (Pod p : pods) {
      String phase = p.getStatus() == null ? "Pending" : p.getStatus().getPhase();
      if ("Succeeded".equals(phase) || "Failed".equals(phase) || p.getSpec() == null) {
        continue;
      }
      long m = cpuMillis(p.getSpec(), p);
      String node = p.getSpec().getNodeName();
      if (node == null || node.isEmpty()) {
        pendingJobs++;
        pendingCoreSeconds += wholeCores(m) * timeLimit(p.getSpec(), null, defaultTimeLimitSeconds);
      } else if (cores.containsKey(node)) {
        requested.merge(node, m, Long::sum);
      }
    }
    for (Job j : jobs) {
      if (j.getSpec() != null && Boolean.TRUE.equals(j.getSpec().getSuspend()) && !PilotStates.ended(j) && j.getSpec().getTemplate() != null
          && j.getSpec().getTemplate().getSpec() != null) {
        PodSpec spec = j.getSpec().getTemplate().getSpec();
        int parallelism = j.getSpec().getParallelism() == null ? 1 : Math.max(0, j.getSpec().getParallelism());
        pendingJobs += parallelism;
        pendingCoreSeconds += parallelism * wholeCores(cpuMillis(spec, j)) * timeLimit(spec, j.getSpec().getActiveDeadlineSeconds(),
            defaultTimeLimitSeconds);
      }
    }
    int total = 0;
    int allocated = 0;
    int largest = 0;
    for (var e : cores.entrySet()) {
      total += e.getValue();
      largest = Math.max(largest, e.getValue());
      long m = requested.getOrDefault(e.getKey(), 0L);
      allocated += (int) Math.min(e.getValue(), (m + 999) / 1000);
    }
    List<PartitionLoad> partitions = pendingJobs == 0 ? List.of() : List.of(new PartitionLoad("", pendingJobs, pendingCoreSeconds));
    return new Load(new QueueObservation(at, pendingJobs, pendingCoreSeconds, partitions, allocated, total, cost), largest, gpus);
  }

  static boolean usable(Node n) {
    if (n.getSpec() != null && Boolean.TRUE.equals(n.getSpec().getUnschedulable())) {
      return false;
    }
    List<Taint> taints = n.getSpec() == null || n.getSpec().getTaints() == null ? List.of() : n.getSpec().getTaints();
    if (taints.stream().anyMatch(t -> NO_SCHEDULE.contains(t.getEffect()))) {
      return false;
    }
    List<NodeCondition> conditions = n.getStatus() == null || n.getStatus().getConditions() == null ? List.of() : n.getStatus().getConditions();
    return conditions.stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  /** The CPU a pod asks the scheduler for, in millicores. */
  static long cpuMillis(PodSpec spec, HasMetadata owner) {
    long containers = 0;
    for (Container c : spec.getContainers() == null ? List.<Container>of() : spec.getContainers()) {
      containers += containerMillis(c, owner);
    }
    long init = 0;
    long sidecars = 0; // init containers that keep running (restartPolicy Always) run beside the others
    for (Container c : spec.getInitContainers() == null ? List.<Container>of() : spec.getInitContainers()) {
      if ("Always".equals(c.getRestartPolicy())) {
        sidecars += containerMillis(c, owner);
        init = Math.max(init, sidecars);
      } else {
        init = Math.max(init, sidecars + containerMillis(c, owner));
      }
    }
    containers += sidecars;
    Quantity overhead = spec.getOverhead() == null ? null : spec.getOverhead().get("cpu");
    return Math.max(containers, init) + (overhead == null ? 0 : millis(overhead, owner).longValue());
  }

  private static long containerMillis(Container c, HasMetadata owner) {
    if (c.getResources() == null) {
      return 0;
    }
    Quantity q = c.getResources().getRequests() == null ? null : c.getResources().getRequests().get("cpu");
    if (q == null && c.getResources().getLimits() != null) {
      q = c.getResources().getLimits().get("cpu"); // Kubernetes defaults a missing request to the limit
    }
    return q == null ? 0 : millis(q, owner).setScale(0, RoundingMode.CEILING).longValueExact();
  }

  private static BigDecimal millis(Quantity q, HasMetadata owner) {
    try {
      return q.getNumericalAmount().multiply(THOUSAND);
    } catch (RuntimeException e) {
      throw new HandlerException(Category.PROTOCOL, owner.getKind() + " " + owner.getMetadata().getNamespace() + "/"
          + owner.getMetadata().getName() + ": CPU quantity '" + q + "' cannot be read: " + e.getMessage(), e);
    }
  }

  private static int wholeCores(long millis) {
    return (int) Math.max(1, (millis + 999) / 1000);
  }

  private static long timeLimit(PodSpec spec, Long jobDeadline, long defaultSeconds) {
    if (spec.getActiveDeadlineSeconds() != null && spec.getActiveDeadlineSeconds() > 0) {
      return spec.getActiveDeadlineSeconds();
    }
    return jobDeadline != null && jobDeadline > 0 ? jobDeadline : defaultSeconds;
  }
}
