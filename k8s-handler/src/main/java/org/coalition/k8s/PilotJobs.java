package org.coalition.k8s;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.PilotSpec;
import org.coalition.job.JobLayout;

/**
 * How a pilot becomes Kubernetes objects: a {@code batch/v1} Job of one pod that never restarts
 * ({@code backoffLimit: 0}, {@code restartPolicy: Never}: the federation requeues, not Kubernetes),
 * and a Secret that holds the pilot's environment (its claim token among it), so that no token is
 * readable in the Job's spec, in a label, or by anyone who may only list pods.
 */
final class PilotJobs {
  /** On every object this handler makes; the handler lists and watches by it. */
  static final String MANAGED_BY = "app.kubernetes.io/managed-by";
  static final String COALITION = "coalition";
  static final String SITE = "coalition.org/site";
  /** The Job's name, on the Job, its Secret and its pods: how a pod is tied to its pilot. */
  static final String PILOT = "coalition.org/pilot";
  static final String ACCOUNT = "coalition.org/account";
  /** The daemon's name for the pilot, which carries its id (the claim is made under that id). */
  static final String PILOT_NAME = "coalition.org/pilot-name";
  /** Set when the handler cancelled or withdrew the pilot: when, and why. */
  static final String CANCELLED = "coalition.org/cancelled";
  static final String CONTAINER = "pilot";
  private static final SecureRandom RANDOM = new SecureRandom();

  private PilotJobs() {}

  /** A fresh Job name: the pilot's name made a DNS label, and 40 random bits. */
  static String jobName(PilotSpec spec) {
    String base = spec.name().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-").replaceAll("^-+", "");
    if (base.length() > 52) {
      base = base.substring(0, 52);
    }
    byte[] suffix = new byte[5];
    RANDOM.nextBytes(suffix);
    return (base.isEmpty() ? "pilot" : base.replaceAll("-+$", "")) + "-" + HexFormat.of().formatHex(suffix);
  }

  static Map<String, String> labels(KubernetesConfig config, String jobName, String account) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(MANAGED_BY, COALITION);
    labels.put(SITE, config.site());
    labels.put(PILOT, jobName);
    labels.put(ACCOUNT, account);
    return labels;
  }

  /**
   * Refuses a pilot Kubernetes would never place: one that is no single pod
   * ({@link JobLayout#oneTaskOfGpusByCount}; its GPUs are {@value ClusterLoad#GPU}), or
   * of more cores than the largest usable node has (Kubernetes would leave it Pending for ever).
   */
  static void requirePlaceable(PilotSpec spec, int largestNodeCores) {
    if (!spec.layout().oneTaskOfGpusByCount()) {
      throw new HandlerException(Category.REJECTED, "pilot " + spec.name() + ": a pilot is one pod, with GPUs by count only; Kubernetes"
          + " cannot run " + spec.layout());
    }
    if (spec.cores() > largestNodeCores) {
      throw new HandlerException(Category.REJECTED, "pilot " + spec.name() + ": " + spec.cores() + " cores, but the largest usable node has "
          + largestNodeCores + "; Kubernetes would leave it Pending for ever");
    }
  }

  /** The Secret of the pilot's environment, named as its Job. */
  static Secret secret(KubernetesConfig config, String jobName, PilotSpec spec) {
    return new SecretBuilder().withNewMetadata().withName(jobName).withNamespace(config.namespace())
        .withLabels(labels(config, jobName, spec.account())).endMetadata()
        .withType("Opaque").withImmutable(true).withStringData(spec.environment()).build();
  }

  /** The Job: the pilot's command in the site's image, as the account's uid, with requests copied one to one. */
  static Job job(KubernetesConfig config, String jobName, PilotSpec spec, KubernetesConfig.Identity id) {
    Map<String, String> labels = labels(config, jobName, spec.account());
    Map<String, Quantity> requests = new LinkedHashMap<>();
    requests.put("cpu", new Quantity(Integer.toString(spec.cores())));
    Map<String, Quantity> limits = new LinkedHashMap<>();
    if (spec.memoryMb() > 0) {
      requests.put("memory", new Quantity(spec.memoryMb() + "Mi"));
      limits.put("memory", new Quantity(spec.memoryMb() + "Mi"));
    }
    if (spec.layout().gpus() > 0) {
      limits.put(ClusterLoad.GPU, new Quantity(Integer.toString(spec.layout().gpus()))); // an extended resource: its request is its limit
    }
    return new JobBuilder()
        .withNewMetadata().withName(jobName).withNamespace(config.namespace()).withLabels(labels)
          .addToAnnotations(PILOT_NAME, spec.name()).endMetadata()
        .withNewSpec()
          .withBackoffLimit(0).withCompletions(1).withParallelism(1).withSuspend(spec.held())
          // the cluster's own clean-up, should this daemon be gone: after the sweep's, so that the sweep deletes the Secret too
          .withTtlSecondsAfterFinished((int) Math.min(Integer.MAX_VALUE, 2 * config.finishedRetention().toSeconds()))
          .withNewTemplate()
            .withNewMetadata().withLabels(labels).endMetadata()
            .withNewSpec()
              .withRestartPolicy("Never")
              .withActiveDeadlineSeconds(spec.walltimeSeconds())
              .withAutomountServiceAccountToken(false)
              .withEnableServiceLinks(false)
              .withPriorityClassName(config.priorityClass().orElse(null))
              .withNewSecurityContext().withRunAsUser(id.uid()).withRunAsGroup(id.gid()).withRunAsNonRoot(true)
                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile().endSecurityContext()
              .addNewContainer()
                .withName(CONTAINER).withImage(config.image()).withCommand(spec.command()).withWorkingDir(spec.workingDirectory())
                .addNewEnvFrom().withNewSecretRef().withName(jobName).endSecretRef().endEnvFrom()
                .withNewResources().withRequests(requests).withLimits(limits.isEmpty() ? null : limits).endResources()
                .withNewSecurityContext().withAllowPrivilegeEscalation(false).withNewCapabilities().addToDrop("ALL").endCapabilities()
                  .endSecurityContext()
              .endContainer()
            .endSpec()
          .endTemplate()
        .endSpec()
        .build();
  }
}
