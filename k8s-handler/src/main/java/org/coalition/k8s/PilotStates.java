package org.coalition.k8s;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotState;
import org.coalition.handler.PilotStatus;

/**
 * A pilot's state from its Job and the Job's pods, in this order: cancelled or withdrawn by the
 * handler (annotation {@link PilotJobs#CANCELLED}); ended (the Job's Complete or Failed condition,
 * or its pod's phase if the Job controller has not caught up), with the container's exit code;
 * held ({@code spec.suspend}); running (a pod in phase Running); otherwise pending, with the
 * scheduler's reason ("Unschedulable: 0/3 nodes are available: 3 Insufficient cpu").
 */
final class PilotStates {
  private PilotStates() {}

  static PilotStatus of(PilotHandle handle, Job job, List<Pod> pods) {
    String cancelled = job.getMetadata().getAnnotations() == null ? null : job.getMetadata().getAnnotations().get(PilotJobs.CANCELLED);
    if (cancelled != null && !endedBefore(job, cancelled)) {
      return new PilotStatus(handle, PilotState.CANCELLED, OptionalInt.empty(), "cancelled " + cancelled);
    }
    Optional<Pod> pod = pods.stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null || ended(p))
        .max(Comparator.comparing(p -> p.getMetadata().getCreationTimestamp() == null ? ""
            : p.getMetadata().getCreationTimestamp()));
    Optional<ContainerStateTerminated> ended = pod.flatMap(PilotStates::terminated);
    OptionalInt exit = ended.map(t -> OptionalInt.of(t.getExitCode())).orElse(OptionalInt.empty());
    if (condition(job, "Complete").isPresent()) {
      return new PilotStatus(handle, PilotState.COMPLETED, exit.isPresent() ? exit : OptionalInt.of(0), "Complete");
    }
    Optional<JobCondition> failed = condition(job, "Failed");
    if (failed.isPresent()) {
      String why = failed.get().getReason() == null ? "Failed" : "Failed (" + failed.get().getReason() + ")";
      return new PilotStatus(handle, PilotState.FAILED, exit, ended.map(t -> why + ", container " + describe(t)).orElse(why));
    }
    if (Boolean.TRUE.equals(job.getSpec().getSuspend())) {
      return new PilotStatus(handle, PilotState.HELD, OptionalInt.empty(), "suspended");
    }
    String phase = pod.map(p -> p.getStatus() == null ? null : p.getStatus().getPhase()).orElse(null);
    if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
      boolean ok = "Succeeded".equals(phase) && exit.orElse(0) == 0;
      return new PilotStatus(handle, ok ? PilotState.COMPLETED : PilotState.FAILED, ok && exit.isEmpty() ? OptionalInt.of(0) : exit,
          "pod " + phase + ended.map(t -> ", container " + describe(t)).orElse(""));
    }
    if ("Running".equals(phase)) {
      return new PilotStatus(handle, PilotState.RUNNING, OptionalInt.empty(), "pod " + pod.get().getMetadata().getName()
          + " Running on " + pod.get().getSpec().getNodeName());
    }
    return new PilotStatus(handle, PilotState.PENDING, OptionalInt.empty(), pod.map(PilotStates::waiting).orElse("Pending (no pod yet)"));
  }

  /** Whether a pod still counts: not ended, and not being deleted. */
  static boolean live(Pod pod) {
    return !ended(pod) && pod.getMetadata().getDeletionTimestamp() == null;
  }

  private static boolean ended(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  /** Whether the Job had completed or failed before it was marked cancelled (a cancel that raced with the end). */
  private static boolean endedBefore(Job job, String cancelled) {
    try {
      Instant at = Instant.parse(cancelled.split(" ", 2)[0]);
      return condition(job, "Complete").or(() -> condition(job, "Failed")).map(c -> c.getLastTransitionTime())
          .map(t -> Instant.parse(t).isBefore(at)).orElse(false);
    } catch (DateTimeException e) {
      return false;
    }
  }

  /** Why a pod waits: the scheduler's condition if it could not place it, else its phase. */
  static String waiting(Pod pod) {
    Optional<PodCondition> scheduled = scheduled(pod);
    if (scheduled.isPresent() && "False".equals(scheduled.get().getStatus())) {
      return "Pending (" + scheduled.get().getReason() + ": " + scheduled.get().getMessage() + ")";
    }
    return "Pending";
  }

  /** Whether the scheduler found no node for the pod. */
  static boolean unschedulable(Pod pod) {
    return pod.getSpec() != null && pod.getSpec().getNodeName() == null
        && scheduled(pod).map(c -> "False".equals(c.getStatus())).orElse(true);
  }

  private static Optional<PodCondition> scheduled(Pod pod) {
    return pod.getStatus() == null || pod.getStatus().getConditions() == null ? Optional.empty()
        : pod.getStatus().getConditions().stream().filter(c -> "PodScheduled".equals(c.getType())).findFirst();
  }

  static Optional<JobCondition> condition(Job job, String type) {
    if (job.getStatus() == null || job.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return job.getStatus().getConditions().stream().filter(c -> type.equals(c.getType()) && "True".equals(c.getStatus())).findFirst();
  }

  /** Whether the Job ended: completed, failed, or cancelled by the handler. */
  static boolean ended(Job job) {
    return condition(job, "Complete").isPresent() || condition(job, "Failed").isPresent()
        || (job.getMetadata().getAnnotations() != null && job.getMetadata().getAnnotations().containsKey(PilotJobs.CANCELLED));
  }

  private static Optional<ContainerStateTerminated> terminated(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
      return Optional.empty();
    }
    return pod.getStatus().getContainerStatuses().stream().filter(c -> PilotJobs.CONTAINER.equals(c.getName()))
        .map(ContainerStatus::getState).filter(s -> s != null && s.getTerminated() != null).map(s -> s.getTerminated()).findFirst();
  }

  private static String describe(ContainerStateTerminated t) {
    return "exited " + t.getExitCode() + (t.getReason() == null ? "" : " (" + t.getReason() + ")");
  }
}
