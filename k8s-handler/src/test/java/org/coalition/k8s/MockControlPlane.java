package org.coalition.k8s;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The part of a Kubernetes cluster that fabric8's mock server (CRUD mode) does not have: the Job
 * controller, the scheduler and a kubelet. A hand-written stand-in for the contract tests, in
 * their simplest form: every 100 ms it makes one pod per released Job, binds pending pods to the
 * first usable node with CPU requests left (else marks them Unschedulable, as the scheduler
 * does), runs a bound pod's command on this machine as the pod's {@code runAsUser} (through
 * {@code setpriv}), reports its exit code, kills pods of suspended Jobs and pods past
 * {@code activeDeadlineSeconds}, and sets the Jobs' Complete or Failed conditions
 * ({@code backoffLimit: 0}). The image is ignored: commands run on the host.
 *
 * <p>The handler sees nothing of this but what a real API server would show it, through the same
 * REST calls and watches; what it cannot show (image pulls, cgroups, preemption) is written in
 * the module README.
 */
final class MockControlPlane implements AutoCloseable {
  private final KubernetesClient client;
  private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "mock-control-plane");
    t.setDaemon(true);
    return t;
  });
  /** Processes of pods, by namespace/name. */
  private final Map<String, Process> running = new ConcurrentHashMap<>();
  private final Map<String, Instant> started = new ConcurrentHashMap<>();
  private volatile Throwable failure;

  MockControlPlane(KubernetesClient client) {
    this.client = client;
    loop.scheduleWithFixedDelay(() -> {
      try {
        tick();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 404 && e.getCode() != 409) {
          failure = e;
        } // an object the test deleted, or changed, under this tick: a real controller retries on the next
      } catch (Throwable t) {
        failure = t;
      }
    }, 0, 100, TimeUnit.MILLISECONDS);
  }

  /** The last error of the control loop, if any: a test that sees nothing happen can say why. */
  Throwable failure() {
    return failure;
  }

  void addNode(String name, int cpus, boolean ready, boolean cordoned) {
    Node n = new NodeBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec().withUnschedulable(cordoned).endSpec()
        .withNewStatus().addToAllocatable("cpu", new Quantity(Integer.toString(cpus))).addToAllocatable("memory", new Quantity("16Gi"))
        .addNewCondition().withType("Ready").withStatus(ready ? "True" : "False").endCondition().endStatus().build();
    client.nodes().resource(n).create();
  }

  @Override
  public void close() {
    loop.shutdownNow();
    running.values().forEach(Process::destroyForcibly);
  }

  private void tick() throws IOException {
    List<Job> jobs = client.batch().v1().jobs().inAnyNamespace().list().getItems();
    List<Pod> pods = new ArrayList<>(client.pods().inAnyNamespace().list().getItems());
    Map<String, Pod> byKey = new HashMap<>();
    pods.forEach(p -> byKey.put(key(p.getMetadata().getNamespace(), p.getMetadata().getName()), p));
    running.keySet().removeIf(k -> {
      if (!byKey.containsKey(k)) {
        running.get(k).destroyForcibly();
        return true;
      }
      return false;
    });
    for (Job job : jobs) {
      jobController(job, pods.stream().filter(p -> ownedBy(p, job)).toList());
    }
    for (Pod pod : pods) {
      String phase = pod.getStatus() == null ? "Pending" : pod.getStatus().getPhase();
      if (pod.getSpec().getNodeName() == null) {
        schedule(pod, pods);
      } else if ("Pending".equals(phase)) {
        start(pod);
      } else if ("Running".equals(phase)) {
        follow(pod);
      }
    }
  }

  private void jobController(Job job, List<Pod> pods) {
    if (finished(job)) {
      return;
    }
    String ns = job.getMetadata().getNamespace();
    if (Boolean.TRUE.equals(job.getSpec().getSuspend())) {
      for (Pod p : pods) {
        client.pods().inNamespace(ns).withName(p.getMetadata().getName()).delete();
      }
      return;
    }
    if (pods.isEmpty()) {
      var template = job.getSpec().getTemplate();
      Pod pod = new PodBuilder().withNewMetadata().withNamespace(ns).withName(job.getMetadata().getName() + "-" + Long.toHexString(System.nanoTime() & 0xfffff))
          .withLabels(template.getMetadata().getLabels()).addToLabels("job-name", job.getMetadata().getName())
          .withCreationTimestamp(Instant.now().toString())
          .addNewOwnerReference().withApiVersion("batch/v1").withKind("Job").withName(job.getMetadata().getName())
          .withUid(job.getMetadata().getUid()).withController(true).endOwnerReference().endMetadata()
          .withSpec(template.getSpec()).withNewStatus().withPhase("Pending").endStatus().build();
      client.pods().inNamespace(ns).resource(pod).create();
      return;
    }
    String phase = pods.get(0).getStatus().getPhase();
    if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
      String reason = "Succeeded".equals(phase) ? null : "DeadlineExceeded".equals(pods.get(0).getStatus().getReason()) ? "DeadlineExceeded"
          : "BackoffLimitExceeded";
      client.batch().v1().jobs().inNamespace(ns).withName(job.getMetadata().getName()).editStatus(j -> {
        if (j.getStatus() == null) {
          j.setStatus(new JobStatus());
        }
        j.getStatus().setConditions(List.of(new JobConditionBuilder().withType(reason == null ? "Complete" : "Failed").withStatus("True")
            .withReason(reason).withLastTransitionTime(Instant.now().toString()).build()));
        j.getStatus().setActive(0);
        j.getStatus().setSucceeded(reason == null ? 1 : 0);
        j.getStatus().setFailed(reason == null ? 0 : 1);
        return j;
      });
    }
  }

  private void schedule(Pod pod, List<Pod> pods) {
    long wanted = requestedMillis(pod);
    for (Node n : client.nodes().list().getItems()) {
      if (!schedulable(n)) {
        continue;
      }
      long allocatable = millis(n.getStatus().getAllocatable().get("cpu"));
      long used = pods.stream().filter(p -> n.getMetadata().getName().equals(p.getSpec().getNodeName()) && !ended(p))
          .mapToLong(MockControlPlane::requestedMillis).sum();
      if (allocatable - used >= wanted) {
        pod.getSpec().setNodeName(n.getMetadata().getName()); // so that the next pod of this tick sees it
        client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
            .edit(p -> {
              p.getSpec().setNodeName(n.getMetadata().getName());
              p.getStatus().setConditions(List.of(new PodConditionBuilder().withType("PodScheduled").withStatus("True").build()));
              return p;
            });
        return;
      }
    }
    if (pod.getStatus().getConditions() == null || pod.getStatus().getConditions().isEmpty()) {
      client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).editStatus(p -> {
        p.getStatus().setConditions(List.of(new PodConditionBuilder().withType("PodScheduled").withStatus("False").withReason("Unschedulable")
            .withMessage("no node has " + wanted + "m CPU free").build()));
        return p;
      });
    }
  }

  private void start(Pod pod) throws IOException {
    String k = key(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
    if (running.containsKey(k)) {
      return;
    }
    Container c = pod.getSpec().getContainers().get(0);
    Map<String, String> env = new HashMap<>();
    for (EnvFromSource from : c.getEnvFrom() == null ? List.<EnvFromSource>of() : c.getEnvFrom()) {
      Secret s = client.secrets().inNamespace(pod.getMetadata().getNamespace()).withName(from.getSecretRef().getName()).get();
      if (s == null) {
        return; // a kubelet waits for the Secret (CreateContainerConfigError) and tries again
      }
      if (s.getStringData() != null) {
        env.putAll(s.getStringData());
      }
      if (s.getData() != null) {
        s.getData().forEach((key, v) -> env.put(key, new String(Base64.getDecoder().decode(v), StandardCharsets.UTF_8)));
      }
    }
    List<String> command = new ArrayList<>();
    var security = pod.getSpec().getSecurityContext();
    if (security == null || security.getRunAsUser() == null || security.getRunAsUser() == 0) {
      throw new IllegalStateException("pod " + k + " would run as root: the stand-in refuses, as runAsNonRoot would");
    }
    if ("root".equals(System.getProperty("user.name"))) {
      command.addAll(List.of("setpriv", "--reuid=" + security.getRunAsUser(), "--regid=" + security.getRunAsGroup(), "--clear-groups", "--"));
    } else if (security.getRunAsUser() != uid()) {
      throw new IllegalStateException("pod " + k + " asks for uid " + security.getRunAsUser() + ", but the stand-in runs as uid " + uid()
          + " and can switch only when run as root");
    }
    command.addAll(c.getCommand());
    command.addAll(c.getArgs() == null ? List.of() : c.getArgs());
    ProcessBuilder b = new ProcessBuilder(command).directory(Path.of(c.getWorkingDir()).toFile())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
    b.environment().clear();
    b.environment().put("PATH", "/usr/local/bin:/usr/bin:/bin");
    b.environment().putAll(env);
    running.put(k, b.start());
    started.put(k, Instant.now());
    client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).editStatus(p -> {
      p.getStatus().setPhase("Running");
      p.getStatus().setStartTime(Instant.now().toString());
      p.getStatus().setContainerStatuses(List.of(new ContainerStatusBuilder().withName(c.getName())
          .withState(new ContainerStateBuilder().withNewRunning().withStartedAt(Instant.now().toString()).endRunning().build()).build()));
      return p;
    });
  }

  private void follow(Pod pod) {
    String k = key(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
    Process p = running.get(k);
    if (p == null) {
      return;
    }
    Long deadline = pod.getSpec().getActiveDeadlineSeconds();
    boolean late = deadline != null && started.get(k).plusSeconds(deadline).isBefore(Instant.now());
    if (p.isAlive() && !late) {
      return;
    }
    if (late) {
      p.destroyForcibly();
    }
    int exit = late ? 137 : p.exitValue();
    running.remove(k);
    client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).editStatus(x -> {
      x.getStatus().setPhase(exit == 0 ? "Succeeded" : "Failed");
      x.getStatus().setReason(late ? "DeadlineExceeded" : null);
      x.getStatus().setContainerStatuses(List.of(new ContainerStatusBuilder().withName(pod.getSpec().getContainers().get(0).getName())
          .withState(new ContainerStateBuilder().withNewTerminated().withExitCode(exit).withReason(exit == 0 ? "Completed" : "Error")
              .withFinishedAt(Instant.now().toString()).endTerminated().build()).build()));
      return x;
    });
  }

  // The rules below are written from the Kubernetes documentation, not taken from the handler, so
  // that a wrong rule in the handler is not also the stand-in's.

  /**
   * Whether a Job has finished: it carries a condition of type Complete or Failed whose status is
   * "True" (Jobs, "Job termination and cleanup").
   */
  private static boolean finished(Job job) {
    return job.getStatus() != null && job.getStatus().getConditions() != null && job.getStatus().getConditions().stream()
        .anyMatch(c -> ("Complete".equals(c.getType()) || "Failed".equals(c.getType())) && "True".equals(c.getStatus()));
  }

  /**
   * Whether the scheduler may place a pod without tolerations on a node: not cordoned
   * ({@code spec.unschedulable}), no taint of effect NoSchedule or NoExecute ("Taints and
   * Tolerations"), and its Ready condition "True" (a node that is not ready carries the
   * {@code node.kubernetes.io/not-ready} taint).
   */
  private static boolean schedulable(Node n) {
    if (n.getSpec() != null) {
      if (Boolean.TRUE.equals(n.getSpec().getUnschedulable())) {
        return false;
      }
      if (n.getSpec().getTaints() != null && n.getSpec().getTaints().stream()
          .anyMatch(t -> "NoSchedule".equals(t.getEffect()) || "NoExecute".equals(t.getEffect()))) {
        return false;
      }
    }
    return n.getStatus() != null && n.getStatus().getConditions() != null && n.getStatus().getConditions().stream()
        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  /**
   * The CPU the scheduler reserves for a pod ("Resource Management for Pods and Containers", "Init
   * Containers", "Sidecar Containers", "Pod Overhead"): the app containers' requests plus those of
   * the sidecars (init containers with restartPolicy Always), or, if larger, the most any step of
   * the init sequence needs (an init container beside the sidecars started before it); plus the
   * pod's overhead. A container that sets a CPU limit and no request requests its limit.
   */
  static long requestedMillis(Pod pod) {
    long apps = 0;
    for (Container c : pod.getSpec().getContainers()) {
      apps += request(c);
    }
    long sidecarsSoFar = 0;
    long initPeak = 0;
    for (Container c : pod.getSpec().getInitContainers() == null ? List.<Container>of() : pod.getSpec().getInitContainers()) {
      if ("Always".equals(c.getRestartPolicy())) {
        sidecarsSoFar += request(c);
        initPeak = Math.max(initPeak, sidecarsSoFar);
      } else {
        initPeak = Math.max(initPeak, sidecarsSoFar + request(c));
      }
    }
    Quantity overhead = pod.getSpec().getOverhead() == null ? null : pod.getSpec().getOverhead().get("cpu");
    return Math.max(apps + sidecarsSoFar, initPeak) + (overhead == null ? 0 : millis(overhead));
  }

  private static long request(Container c) {
    if (c.getResources() == null) {
      return 0;
    }
    Map<String, Quantity> requests = c.getResources().getRequests();
    Map<String, Quantity> limits = c.getResources().getLimits();
    Quantity q = requests != null && requests.containsKey("cpu") ? requests.get("cpu") : limits == null ? null : limits.get("cpu");
    return q == null ? 0 : millis(q);
  }

  /** A CPU quantity ("2", "500m", "0.25") in millicores, rounded up as Kubernetes does. */
  private static long millis(Quantity q) {
    return q.getNumericalAmount().movePointRight(3).setScale(0, RoundingMode.CEILING).longValueExact();
  }

  private static long uid() {
    try {
      return (Long) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException e) {
      throw new IllegalStateException("cannot read this process's uid", e);
    }
  }

  private static boolean ended(Pod p) {
    String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  private static boolean ownedBy(Pod p, Job job) {
    return p.getMetadata().getNamespace().equals(job.getMetadata().getNamespace()) && p.getMetadata().getLabels() != null
        && job.getMetadata().getName().equals(p.getMetadata().getLabels().get("job-name"));
  }

  private static String key(String ns, String name) {
    return ns + "/" + name;
  }
}
