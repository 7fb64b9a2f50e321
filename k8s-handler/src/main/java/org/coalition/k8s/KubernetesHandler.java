package org.coalition.k8s;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobList;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.PilotState;
import org.coalition.handler.PilotStatus;
import org.coalition.handler.QueueObservation;
import org.coalition.handler.RequestCost;
import org.coalition.handler.ResourceHandler;
import org.coalition.job.JobLayout;

/**
 * Kubernetes as a site, through the fabric8 client. A pilot is a {@code batch/v1} Job of one pod
 * in the configured namespace ({@link PilotJobs}); held is {@code spec.suspend: true}; cancelled
 * and withdrawn pilots are suspended (Kubernetes then deletes their pods) and marked, so that
 * their end survives a restart of the daemon. Pilots' states come from two informers (a watch on
 * the namespace's pilot Jobs and pods), so following many pilots costs no request per pilot.
 *
 * <p>Each {@link #observe()} lists nodes, pods and Jobs of the whole cluster page by page (the
 * load of a site is everyone's load, not only pilots') and then sweeps the pilots: Jobs ended
 * longer than {@code finishedRetention} ago are deleted with their Secrets, and a released pilot
 * whose pod the scheduler has left unplaced longer than {@code pendingTimeout} is withdrawn.
 * Kubernetes does not queue what does not fit, so a pilot larger than every usable node is refused
 * at submission.
 */
public final class KubernetesHandler implements ResourceHandler {
  /** The handler's kind, as in {@link PilotHandle#system()}. */
  public static final String KIND = "kubernetes";
  private static final String BY_PILOT = "pilot";

  private final KubernetesConfig config;
  private final KubernetesClient client;
  private final ApiReads api;
  private final Clock clock;
  private final String description;
  private final SharedIndexInformer<Job> jobs;
  private final SharedIndexInformer<Pod> pods;
  /** Cores of the largest usable node at the last observation; unknown (no limit) before the first. */
  private volatile int largestNodeCores = Integer.MAX_VALUE;
  /** The most GPUs one usable node had at the last observation: the most a pilot asks for here. */
  private volatile int largestNodeGpus;

  private KubernetesHandler(KubernetesConfig config, KubernetesClient client, Clock clock) {
    this.config = config;
    this.client = client;
    this.api = new ApiReads(client, config.pageSize());
    this.clock = clock;
    String version;
    try { // into a Map, not fabric8's VersionInfo: servers add fields of their own (platform, emulationMajor...)
      var v = client.getKubernetesSerialization().unmarshal(api.get(api.base() + "/version", "connect to the Kubernetes API server"), Map.class);
      version = v.get("gitVersion") != null ? v.get("gitVersion").toString() : v.get("major") != null ? "v" + v.get("major") + "." + v.get("minor")
          : null;
    } catch (RuntimeException e) {
      if (e instanceof HandlerException h) {
        throw h;
      }
      throw new HandlerException(Category.PROTOCOL, "connect to the Kubernetes API server at " + client.getMasterUrl()
          + ": /version cannot be read: " + e.getMessage(), e);
    }
    if (version == null) {
      throw new HandlerException(Category.PROTOCOL, "connect to " + client.getMasterUrl() + ": its /version names no Kubernetes version;"
          + " is this the address of a Kubernetes API server?");
    }
    this.description = "Kubernetes " + version + " (" + client.getMasterUrl() + ", namespace " + config.namespace() + ", batch/v1 Jobs)";
    this.jobs = client.batch().v1().jobs().inNamespace(config.namespace()).withLabel(PilotJobs.MANAGED_BY, PilotJobs.COALITION)
        .withLabel(PilotJobs.SITE, config.site()).runnableInformer(0);
    this.pods = client.pods().inNamespace(config.namespace()).withLabel(PilotJobs.MANAGED_BY, PilotJobs.COALITION)
        .withLabel(PilotJobs.SITE, config.site()).runnableInformer(0);
    pods.addIndexers(Map.of(BY_PILOT, p -> List.of(label(p.getMetadata().getLabels(), PilotJobs.PILOT))));
    try {
      jobs.run();
      pods.run();
    } catch (KubernetesClientException e) {
      jobs.close();
      pods.close();
      throw ApiReads.error("watch pilot Jobs and pods in namespace " + config.namespace(), e);
    }
  }

  /**
   * Connects with the credentials of {@code kubeconfig}, or without one the client's usual
   * search: {@code $KUBECONFIG}, {@code ~/.kube/config}, then the pod's service account.
   */
  public static KubernetesHandler connect(KubernetesConfig config, Optional<Path> kubeconfig) {
    KubernetesClientBuilder builder = new KubernetesClientBuilder();
    if (kubeconfig.isPresent()) {
      String fix = " (it must be a readable kubeconfig file with a current context; kubectl config view --minify shows one)";
      if (!Files.isReadable(kubeconfig.get())) {
        throw new HandlerException(Category.AUTHENTICATION, "read kubeconfig " + kubeconfig.get() + ": no such file, or not readable" + fix);
      }
      try { // from the file, not its text: relative paths in it resolve, and expiring credentials (exec, OIDC) can be refreshed
        builder.withConfig(Config.fromKubeconfig(kubeconfig.get().toFile()));
      } catch (RuntimeException e) {
        throw new HandlerException(Category.AUTHENTICATION, "read kubeconfig " + kubeconfig.get() + ": " + e.getMessage() + fix, e);
      }
    }
    return connect(config, builder.build(), Clock.systemUTC());
  }

  /** Connects through {@code client}, which the handler closes when it is closed. */
  public static KubernetesHandler connect(KubernetesConfig config, KubernetesClient client, Clock clock) {
    try {
      return new KubernetesHandler(config, client, clock);
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
  }

  @Override
  public String describe() {
    return description;
  }

  @Override
  public QueueObservation observe() {
    double at = clock.millis() / 1000.0;
    long[] cost = new long[2];
    List<Node> nodes = api.list("/api/v1/nodes", NodeList.class, cost);
    List<Pod> all = api.list("/api/v1/pods", PodList.class, cost);
    List<Job> allJobs = api.list("/apis/batch/v1/jobs", JobList.class, cost);
    ClusterLoad.Load load = ClusterLoad.of(at, nodes, all, allJobs, config.defaultTimeLimit().toSeconds(),
        new RequestCost((int) cost[0], cost[1]));
    largestNodeCores = load.largestNodeCores();
    largestNodeGpus = load.largestNodeGpus();
    sweep();
    return load.observation();
  }

  /** A job of one pod ({@link JobLayout#oneTaskOfGpusByCount}), of as many GPUs as one usable node had at the last observation. */
  @Override
  public boolean canHold(int cores, long memoryMb, JobLayout layout) {
    return layout.oneTaskOfGpusByCount() && layout.gpus() <= largestNodeGpus;
  }

  @Override
  public PilotHandle submit(PilotSpec spec) {
    if (!spec.partition().isEmpty()) {
      throw new HandlerException(Category.REJECTED, "pilot " + spec.name() + ": Kubernetes has no partitions, but '" + spec.partition()
          + "' was asked for (leave the pilots' partition empty in the site file)");
    }
    KubernetesConfig.Identity id = config.accounts().get(spec.account());
    if (id == null) {
      throw new HandlerException(Category.REJECTED, "pilot " + spec.name() + ": account " + spec.account()
          + " has no uid in the kubernetes handler's accounts; map it there (accounts: " + spec.account() + ": {uid: ..., gid: ...})");
    }
    PilotJobs.requirePlaceable(spec, largestNodeCores);
    String name = PilotJobs.jobName(spec);
    String what = "submit pilot " + spec.name() + " as Job " + config.namespace() + "/" + name;
    try {
      client.secrets().inNamespace(config.namespace()).resource(PilotJobs.secret(config, name, spec)).create();
    } catch (KubernetesClientException e) {
      throw ApiReads.error(what + " (its Secret)", e);
    }
    Job job;
    try {
      job = client.batch().v1().jobs().inNamespace(config.namespace()).resource(PilotJobs.job(config, name, spec, id)).create();
    } catch (KubernetesClientException e) {
      deleteQuietly(name);
      throw ApiReads.error(what, e);
    }
    try { // the Secret, which holds the claim token, goes when its Job goes, even if this daemon is not there to sweep
      client.secrets().inNamespace(config.namespace()).withName(name).edit(s -> {
        s.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder().withApiVersion("batch/v1").withKind("Job").withName(name)
            .withUid(job.getMetadata().getUid()).withBlockOwnerDeletion(false).build()));
        return s;
      });
    } catch (KubernetesClientException e) {
      deleteQuietly(name);
      throw ApiReads.error(what + " (tying its Secret to the Job)", e);
    }
    return new PilotHandle(KIND, name);
  }

  @Override
  public void hold(PilotHandle pilot) {
    suspend(pilot, true, "hold", "a pending pilot");
  }

  @Override
  public void release(PilotHandle pilot) {
    suspend(pilot, false, "release", "a held pilot");
  }

  /**
   * Holds or releases a pilot that has not started, read fresh from the API server. A pilot that
   * has a pod is not held: suspending its Job would delete the pod, which Kubernetes may count as
   * the Job's one allowed failure ({@code backoffLimit: 0}).
   */
  private void suspend(PilotHandle pilot, boolean suspend, String what, String which) {
    Pilot p = fresh(pilot).orElseThrow(() -> new HandlerException(Category.NOT_FOUND, what + " " + pilot + ": no such Job in namespace "
        + config.namespace()));
    PilotStatus s = PilotStates.of(pilot, p.job(), p.pods());
    if (s.state() != PilotState.PENDING && s.state() != PilotState.HELD) {
      throw new HandlerException(Category.REJECTED, what + " " + pilot + ": only " + which + " can be " + (suspend ? "held" : "released")
          + ", it is " + s.state() + " (" + s.detail() + ")");
    }
    if (suspend && p.pods().stream().anyMatch(PilotStates::live)) {
      throw new HandlerException(Category.REJECTED, "hold " + pilot + ": it has a pod already (" + s.detail()
          + "); holding it would delete the pod, which Kubernetes may count as the pilot's failure. Cancel it instead");
    }
    patch(pilot, p.job(), suspend, Optional.empty(), what);
  }

  @Override
  public void cancel(PilotHandle pilot) {
    Optional<Pilot> p = fresh(pilot);
    if (p.isPresent() && !PilotStates.ended(p.get().job())) {
      mark(pilot, p.get().job(), "by the daemon");
    }
  }

  @Override
  public PilotStatus status(PilotHandle pilot) {
    if (!KIND.equals(pilot.system()) || !KubernetesConfig.DNS_LABEL.matcher(pilot.nativeId()).matches()) {
      return PilotStatus.unknown(pilot, "not a pilot Job of this handler");
    }
    Job job = jobs.getStore().getByKey(config.namespace() + "/" + pilot.nativeId());
    if (job != null && jobs.isWatching() && pods.isWatching()) {
      return PilotStates.of(pilot, job, pods.getIndexer().byIndex(BY_PILOT, pilot.nativeId()));
    }
    // submitted a moment ago and the watch has not brought it yet, or the watch is down: ask
    return fresh(pilot).map(p -> PilotStates.of(pilot, p.job(), p.pods()))
        .orElseGet(() -> PilotStatus.unknown(pilot, "no Job " + config.namespace() + "/" + pilot.nativeId() + " (deleted, or never made)"));
  }

  /** A pilot's Job and pods as the API server has them now. */
  private record Pilot(Job job, List<Pod> pods) {}

  private Optional<Pilot> fresh(PilotHandle pilot) {
    try {
      Job job = client.batch().v1().jobs().inNamespace(config.namespace()).withName(pilot.nativeId()).get();
      if (job == null) {
        return Optional.empty();
      }
      return Optional.of(new Pilot(job, client.pods().inNamespace(config.namespace()).withLabel(PilotJobs.PILOT, pilot.nativeId()).list()
          .getItems()));
    } catch (KubernetesClientException e) {
      throw ApiReads.error("read pilot " + pilot, e);
    }
  }

  @Override
  public Map<PilotHandle, PilotStatus> statuses(Collection<PilotHandle> pilots) {
    Map<PilotHandle, PilotStatus> out = new LinkedHashMap<>();
    for (PilotHandle p : pilots) {
      out.put(p, status(p));
    }
    return out;
  }

  @Override
  public void close() {
    jobs.close();
    pods.close();
    client.close();
  }

  /** Deletes pilots ended over {@code finishedRetention} ago, and withdraws those left unplaced over {@code pendingTimeout}. */
  void sweep() {
    Instant now = clock.instant();
    for (Job job : jobs.getStore().list()) {
      String name = job.getMetadata().getName();
      Optional<Instant> ended = endedAt(job);
      if (ended.isPresent()) {
        if (ended.get().plus(config.finishedRetention()).isBefore(now)) {
          deleteQuietly(name);
        }
        continue;
      }
      if (waitedTooLong(job, pods.getIndexer().byIndex(BY_PILOT, name), now).isPresent()) {
        try { // the cache may lag: decide on what the API server has now
          PilotHandle handle = new PilotHandle(KIND, name);
          Optional<Pilot> p = fresh(handle);
          Optional<String> why = p.flatMap(x -> waitedTooLong(x.job(), x.pods(), now));
          if (why.isPresent()) {
            mark(handle, p.get().job(), "withdrawn: " + why.get() + " for over " + config.pendingTimeout().toSeconds() + " s (pendingTimeout)");
          }
        } catch (HandlerException e) {
          // the next sweep tries again
        }
      }
    }
  }

  /**
   * Why a pilot counts as left waiting, if it is released and has not ended: its pod unbound since longer than
   * {@code pendingTimeout}, or no pod made at all that long after the Job started (a quota or the
   * namespace's Pod Security level refused it: {@code kubectl describe job} shows the event).
   */
  private Optional<String> waitedTooLong(Job job, List<Pod> its, Instant now) {
    if (PilotStates.ended(job) || Boolean.TRUE.equals(job.getSpec().getSuspend())) {
      return Optional.empty(); // ended, or held: a held pilot waits by design, not for room
    }
    List<Pod> live = its.stream().filter(PilotStates::live).toList();
    if (live.isEmpty()) {
      if (!its.isEmpty()) {
        return Optional.empty(); // its pod ended: the Job's end is on its way
      }
      String since = job.getStatus() != null && job.getStatus().getStartTime() != null ? job.getStatus().getStartTime()
          : job.getMetadata().getCreationTimestamp();
      return instant(since).filter(t -> t.plus(config.pendingTimeout()).isBefore(now))
          .map(t -> "Kubernetes made no pod for it (kubectl describe job " + job.getMetadata().getName() + " says why)");
    }
    for (Pod pod : live) {
      Optional<Instant> created = instant(pod.getMetadata().getCreationTimestamp());
      if (PilotStates.unschedulable(pod) && created.isPresent() && created.get().plus(config.pendingTimeout()).isBefore(now)) {
        return Optional.of(PilotStates.waiting(pod));
      }
    }
    return Optional.empty();
  }

  private static Optional<Instant> endedAt(Job job) {
    var annotations = job.getMetadata().getAnnotations();
    if (annotations != null && annotations.containsKey(PilotJobs.CANCELLED)) {
      return instant(annotations.get(PilotJobs.CANCELLED).split(" ", 2)[0]);
    }
    return PilotStates.condition(job, "Complete").or(() -> PilotStates.condition(job, "Failed"))
        .flatMap(c -> instant(c.getLastTransitionTime()).or(() -> Optional.of(Instant.EPOCH)));
  }

  private static Optional<Instant> instant(String rfc3339) {
    try {
      return rfc3339 == null ? Optional.empty() : Optional.of(Instant.parse(rfc3339));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /** Cancels or withdraws: suspends the Job (Kubernetes deletes its pods) and writes when and why. */
  private void mark(PilotHandle pilot, Job read, String why) {
    patch(pilot, read, true, Optional.of(clock.instant() + " " + why), "cancel");
  }

  /**
   * Sets the Job's {@code suspend} (and the cancellation annotation) with a merge patch made on
   * condition that the Job is still as {@code read}: a Job that changed meanwhile (its pod
   * started, it ended) answers 409, and the caller's decision is not applied.
   */
  private void patch(PilotHandle pilot, Job read, boolean suspend, Optional<String> cancelled, String what) {
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("resourceVersion", read.getMetadata().getResourceVersion());
    cancelled.ifPresent(c -> metadata.put("annotations", Map.of(PilotJobs.CANCELLED, c)));
    String json = client.getKubernetesSerialization().asJson(Map.of("metadata", metadata, "spec", Map.of("suspend", suspend)));
    try {
      client.batch().v1().jobs().inNamespace(config.namespace()).withName(pilot.nativeId()).patch(PatchContext.of(PatchType.JSON_MERGE), json);
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404 && cancelled.isPresent()) {
        return; // gone already
      }
      if (e.getCode() == 409) {
        throw new HandlerException(Category.UNAVAILABLE, what + " " + pilot + ": the Job changed meanwhile (its pod started, or it ended);"
            + " nothing was done: read its state and decide again", e);
      }
      throw ApiReads.error(what + " " + pilot, e);
    }
  }

  private void deleteQuietly(String name) {
    try {
      client.batch().v1().jobs().inNamespace(config.namespace()).withName(name).withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
      client.secrets().inNamespace(config.namespace()).withName(name).delete();
    } catch (KubernetesClientException e) {
      // the next sweep tries again
    }
  }

  private static String label(Map<String, String> labels, String key) {
    return labels == null || labels.get(key) == null ? "" : labels.get(key);
  }
}
