package org.coalition.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.PilotState;
import org.coalition.handler.PilotStatus;
import org.coalition.job.JobLayout;
import org.junit.jupiter.api.Test;

/** The objects a pilot becomes, the states read back from them, and the configuration's checks. */
class PilotJobsTest {
  private static final KubernetesConfig CONFIG = KubernetesConfig.of("pilots", "north", "img:1", Map.of("alice", new KubernetesConfig.Identity(1001, 100)));
  private static final PilotSpec SPEC = new PilotSpec("coalition-pilot-North_7.x", "alice", 4, 2048, 3600, "", List.of("/opt/pilot", "--once"),
      Map.of("COALITION_PILOT_TOKEN", "secret"), "/scratch", false);
  private static final PilotHandle HANDLE = new PilotHandle(KubernetesHandler.KIND, "p");

  @Test
  void jobNamesAreFreshDnsLabels() {
    String a = PilotJobs.jobName(SPEC);
    assertTrue(KubernetesConfig.DNS_LABEL.matcher(a).matches(), a);
    assertTrue(a.startsWith("coalition-pilot-north-7-x-"), a);
    assertNotEquals(a, PilotJobs.jobName(SPEC));
    String longName = PilotJobs.jobName(new PilotSpec("x".repeat(64), "alice", 1, 0, 60, "", List.of("/bin/true"), Map.of(), "/", false));
    assertTrue(longName.length() <= 63 && KubernetesConfig.DNS_LABEL.matcher(longName).matches(), longName);
  }

  @Test
  void theJobCopiesRequestsNeverRetriesAndRunsAsTheAccountsUid() {
    Job job = PilotJobs.job(CONFIG, "p", SPEC, CONFIG.accounts().get("alice"));
    assertEquals(0, job.getSpec().getBackoffLimit());
    assertFalse(job.getSpec().getSuspend());
    assertEquals(1200, job.getSpec().getTtlSecondsAfterFinished(), "the cluster cleans up after the sweep would have");
    assertEquals("RuntimeDefault", job.getSpec().getTemplate().getSpec().getSecurityContext().getSeccompProfile().getType());
    var pod = job.getSpec().getTemplate().getSpec();
    assertEquals("Never", pod.getRestartPolicy());
    assertEquals(3600L, pod.getActiveDeadlineSeconds());
    assertFalse(pod.getAutomountServiceAccountToken(), "a foreign job gets no credentials to this cluster's API");
    assertEquals(1001L, pod.getSecurityContext().getRunAsUser());
    assertEquals(100L, pod.getSecurityContext().getRunAsGroup());
    assertTrue(pod.getSecurityContext().getRunAsNonRoot());
    var c = pod.getContainers().get(0);
    assertEquals(List.of("/opt/pilot", "--once"), c.getCommand());
    assertEquals("/scratch", c.getWorkingDir());
    assertEquals("4", c.getResources().getRequests().get("cpu").toString());
    assertEquals("2048Mi", c.getResources().getRequests().get("memory").toString());
    assertEquals("2048Mi", c.getResources().getLimits().get("memory").toString());
    assertFalse(c.getResources().getLimits().containsKey("cpu"), "no CPU limit: no throttling of a job that asked for whole cores");
    assertFalse(c.getSecurityContext().getAllowPrivilegeEscalation());
    assertEquals("p", c.getEnvFrom().get(0).getSecretRef().getName());
    assertTrue(c.getEnv() == null || c.getEnv().isEmpty(), "the environment is in the Secret only");
    assertEquals("p", job.getSpec().getTemplate().getMetadata().getLabels().get(PilotJobs.PILOT));
    assertEquals(Map.of("COALITION_PILOT_TOKEN", "secret"), PilotJobs.secret(CONFIG, "p", SPEC).getStringData());
  }

  @Test
  void aPilotOfGpusAsksForThemAsAnExtendedResourceAndOnlyOnePodOfGpusByCountCanBeAsked() {
    PilotSpec gpu = new PilotSpec("coalition-pilot-gpu", "alice", 1, 0, 60, "", List.of("/opt/pilot"), Map.of(), "/", false,
        JobLayout.oneNode(Map.of("gpu", 2)));
    var c = PilotJobs.job(CONFIG, "p", gpu, CONFIG.accounts().get("alice")).getSpec().getTemplate().getSpec().getContainers().get(0);
    assertEquals("2", c.getResources().getLimits().get("nvidia.com/gpu").toString(), "its request is its limit, as for any extended resource");
    assertFalse(PilotJobs.job(CONFIG, "p", SPEC, CONFIG.accounts().get("alice")).getSpec().getTemplate().getSpec().getContainers().get(0)
        .getResources().getLimits().containsKey("nvidia.com/gpu"), "a pilot of no GPU asks for none");
    assertTrue(JobLayout.oneNode(Map.of("gpu", 2)).oneTaskOfGpusByCount());
    assertTrue(JobLayout.ONE.oneTaskOfGpusByCount());
    assertFalse(JobLayout.oneNode(Map.of("gpu:a100", 1)).oneTaskOfGpusByCount(), "by count, not by type");
    assertFalse(new JobLayout(2, 2, Map.of()).oneTaskOfGpusByCount(), "one pod, not two nodes");
    assertFalse(new JobLayout(1, 2, Map.of()).oneTaskOfGpusByCount(), "one task: no srun in a pod");
  }

  @Test
  void statesFollowCancellationThenTheJobsConditionsThenSuspensionThenThePod() {
    Job job = new JobBuilder().withNewMetadata().withName("p").endMetadata().withNewSpec().withSuspend(false).endSpec().build();
    assertEquals(PilotState.PENDING, PilotStates.of(HANDLE, job, List.of()).state());
    Pod pending = new PodBuilder().withNewMetadata().withName("p-1").endMetadata().withNewSpec().endSpec().withNewStatus().withPhase("Pending")
        .addNewCondition().withType("PodScheduled").withStatus("False").withReason("Unschedulable").withMessage("0/3 nodes").endCondition()
        .endStatus().build();
    PilotStatus waits = PilotStates.of(HANDLE, job, List.of(pending));
    assertEquals("Pending (Unschedulable: 0/3 nodes)", waits.detail());
    assertTrue(PilotStates.unschedulable(pending));
    Pod failed = new PodBuilder(pending).editStatus().withPhase("Failed").withContainerStatuses(new ContainerStatusBuilder().withName("pilot")
        .withState(new ContainerStateBuilder().withNewTerminated().withExitCode(3).endTerminated().build()).build()).endStatus().build();
    PilotStatus ended = PilotStates.of(HANDLE, job, List.of(failed));
    assertEquals(PilotState.FAILED, ended.state());
    assertEquals(OptionalInt.of(3), ended.exitCode());
    Job held = new JobBuilder(job).editSpec().withSuspend(true).endSpec().build();
    assertEquals(PilotState.HELD, PilotStates.of(HANDLE, held, List.of()).state());
    Job complete = new JobBuilder(job).withNewStatus().addNewCondition().withType("Complete").withStatus("True").endCondition().endStatus().build();
    assertEquals(new PilotStatus(HANDLE, PilotState.COMPLETED, OptionalInt.of(0), "Complete"), PilotStates.of(HANDLE, complete, List.of()));
    Job cancelled = new JobBuilder(held).editMetadata().addToAnnotations(PilotJobs.CANCELLED, "2026-11-21T10:00:00Z by the daemon").endMetadata().build();
    assertEquals(PilotState.CANCELLED, PilotStates.of(HANDLE, cancelled, List.of(failed)).state());
  }

  @Test
  void theConfigurationRefusesRootBadNamesAndEmptyDurations() {
    assertThrows(IllegalArgumentException.class, () -> new KubernetesConfig.Identity(0, 0));
    assertThrows(IllegalArgumentException.class, () -> new KubernetesConfig.Identity(1001, 0), "not in root's group either");
    assertThrows(IllegalArgumentException.class, () -> new KubernetesConfig.Identity(1L << 31, 1001), "ids are int32 in a pod's spec");
    assertThrows(IllegalArgumentException.class, () -> KubernetesConfig.of("pilots", "north", "img", Map.of("root", new KubernetesConfig.Identity(1, 1))));
    var e = assertThrows(IllegalArgumentException.class, () -> KubernetesConfig.of("Pilots_NS", "north", "img", Map.of()));
    assertTrue(e.getMessage().contains("namespace 'Pilots_NS' must be a DNS label"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> KubernetesConfig.of("pilots", "north", "two words", Map.of()));
    assertThrows(IllegalArgumentException.class, () -> CONFIG.withPendingTimeout(Duration.ZERO));
    assertEquals(Duration.ofMinutes(5), CONFIG.pendingTimeout());
  }
}
