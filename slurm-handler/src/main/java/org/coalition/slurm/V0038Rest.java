package org.coalition.slurm;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.PilotSpec;
import org.coalition.slurm.rest.v0038.api.SlurmApi;
import org.coalition.slurm.rest.v0038.invoker.ApiClient;
import org.coalition.slurm.rest.v0038.invoker.ApiException;
import org.coalition.slurm.rest.v0038.model.V0038Error;
import org.coalition.slurm.rest.v0038.model.V0038JobProperties;
import org.coalition.slurm.rest.v0038.model.V0038JobResponseProperties;
import org.coalition.slurm.rest.v0038.model.V0038JobSubmission;
import org.coalition.slurm.rest.v0038.model.V0038Node;
import org.coalition.slurm.rest.v0038.model.V0038NodesResponse;

/**
 * REST v0.0.38 (Slurm 22.05). Its answers carry no update time, so {@code since} is the client's
 * clock at the previous request, a second early (clocks are assumed within a second of each
 * other); it has no state-only job listing.
 */
final class V0038Rest extends RestAdapter<SlurmApi> {
  /** Slurm's INFINITE and NO_VAL for 32-bit fields. */
  private static final long INFINITE = 0xffffffffL;
  private static final long NO_VAL = 0xfffffffeL;

  private final Clock clock;

  V0038Rest(RestEndpoint endpoint, String observer, Clock clock) {
    super(endpoint, observer);
    this.clock = clock;
    connected(call("ping", () -> api(observer).slurmV0038Ping()).getMeta().getSlurm().getRelease());
  }

  @Override
  public String version() {
    return "v0.0.38";
  }

  @Override
  protected SlurmApi newApi(String user) {
    ApiClient c = new ApiClient();
    c.setObjectMapper(RestEndpoint.fit(c.getObjectMapper()));
    endpoint.configure(user, c::setHttpClientBuilder, c::updateBaseUri, c::setReadTimeout, c::setRequestInterceptor, c::setResponseInterceptor);
    return new SlurmApi(c);
  }

  @Override
  protected int status(Exception e) {
    return e instanceof ApiException a ? a.getCode() : -1;
  }

  @Override
  protected String body(Exception e) {
    return e instanceof ApiException a ? a.getResponseBody() : null;
  }

  @Override
  public Snapshot<SlurmJob> jobs(long since) {
    long now = clock.instant().getEpochSecond() - 1;
    var answer = unlessUnchanged("list jobs", () -> api(observer).slurmV0038GetJobs(since > 0 ? since : null));
    if (answer == null) {
      return null;
    }
    check("list jobs", answer.getErrors());
    List<SlurmJob> jobs = new ArrayList<>();
    for (V0038JobResponseProperties j : answer.getJobs()) {
      jobs.add(job(j));
    }
    return new Snapshot<>(jobs, now);
  }

  @Override
  public Map<String, String> jobStates(Collection<String> ids) {
    return null;
  }

  @Override
  public List<SlurmJob> records(String id) {
    return unlessNotFound(() -> {
      var answer = call("get job " + id, () -> api(observer).slurmV0038GetJob(id));
      check("get job " + id, answer.getErrors());
      return answer.getJobs().stream().map(V0038Rest::job).toList();
    });
  }

  @Override
  public Snapshot<SlurmNode> nodes(long since) {
    long now = clock.instant().getEpochSecond() - 1;
    V0038NodesResponse answer;
    try {
      answer = unlessUnchanged("list nodes", () -> api(observer).slurmV0038GetNodes(since > 0 ? since : null));
      if (answer == null) {
        return null;
      }
    } catch (HandlerException e) {
      // 22.05 (like 24.11) answers some polls with an update time by HTTP 500 "Unspecified error"
      // when its nodes changed; the whole list still works.
      if (since <= 0 || e.category() != Category.UNAVAILABLE) {
        throw e;
      }
      answer = call("list nodes", () -> api(observer).slurmV0038GetNodes(null));
    }
    check("list nodes", answer.getErrors());
    List<SlurmNode> nodes = new ArrayList<>();
    for (V0038Node n : answer.getNodes()) {
      Set<String> states = new HashSet<>();
      states.add(upper(n.getState()));
      n.getStateFlags().forEach(f -> states.add(upper(f)));
      nodes.add(new SlurmNode(n.getName(), states, intOf(n.getCpus()), (int) longOf(n.getAllocCpus()),
          intOf(n.getRealMemory()), SlurmLayout.nodeGres(n.getGres()),
          SlurmLayout.nodeGres(n.getGresUsed()), longOf(n.getAllocMemory())));
    }
    return new Snapshot<>(nodes, now);
  }

  @Override
  public String submit(PilotSpec spec, String script) {
    V0038JobProperties job = new V0038JobProperties();
    job.setName(spec.name());
    if (!spec.partition().isEmpty()) {
      job.setPartition(spec.partition());
    }
    if (!spec.reservation().isEmpty()) {
      job.setReservation(spec.reservation());
    }
    job.setTasks(spec.layout().tasks());
    job.setCpusPerTask(spec.coresPerTask());
    if (spec.layout().nodes() > 1) {
      job.setNodes(List.of(spec.layout().nodes(), spec.layout().nodes()));
      job.setTasksPerNode(SlurmPilots.tasksPerNode(spec));
    }
    job.setGres(SlurmPilots.gresPerNode(spec, ""));
    if (spec.memoryMb() > 0) {
      job.setMemoryPerNode(Math.toIntExact(spec.memoryMb()));
    }
    job.setTimeLimit(Math.toIntExact(spec.walltimeMinutes()));
    job.setRequeue(false);
    // The model starts these at Slurm's defaults; 22.05 reads oversubscribe=false as "shared".
    job.setOversubscribe(null);
    job.setOpenMode(null);
    job.setHold(spec.held());
    job.setCurrentWorkingDirectory(spec.workingDirectory());
    job.setStandardOutput(spec.output());
    job.setStandardError(spec.output());
    job.setEnvironment(new LinkedHashMap<>(SlurmPilots.environment(spec)));
    V0038JobSubmission submission = new V0038JobSubmission();
    submission.setJob(job);
    submission.setScript(script);
    String what = "submit pilot " + spec.name() + " as " + spec.account();
    var answer = call(what, () -> api(spec.account()).slurmV0038SubmitJob(submission));
    // With a job id the submission succeeded, and "errors" are notes ("Job is in held state ...").
    if (answer.getJobId() == null) {
      check(what, answer.getErrors());
      throw new HandlerException(Category.PROTOCOL,
          what + ": slurmrestd at " + endpoint.url() + " answered without a job id");
    }
    return answer.getJobId().toString();
  }

  @Override
  public void hold(String id, boolean hold, String user) {
    update(id, JsonNodeFactory.instance.objectNode().put("hold", hold), (hold ? "hold" : "release") + " job " + id, user);
  }

  @Override
  public void releaseAhead(String id, int points, String user) {
    update(id, JsonNodeFactory.instance.objectNode().put("hold", false).put("nice", -points), "release job " + id + " ahead", user);
  }

  @Override
  public void comment(String id, String comment, String user) {
    update(id, JsonNodeFactory.instance.objectNode().put("comment", comment), "set the comment of job " + id, user);
  }

  @Override
  public void shrink(String id, int minutes, String user) {
    // 22.05 reads "nodes" as Slurm's node count syntax ("1": at least and at most one); its
    // minimum_nodes is a flag and maximum_nodes an unknown key.
    update(id, JsonNodeFactory.instance.objectNode().put("nodes", "1").put("tasks", 1).put("cpus_per_task", 1)
        .put("minimum_cpus_per_node", 1).put("time_limit", minutes).put("memory_per_node", REPLAY_MEMORY_MB),
        "shrink job " + id + " for its replay", user);
  }

  /**
   * One job update, as {@code user}, sent as the fields given: the generated model always sends
   * "environment": null (and Slurm's defaults for open_mode and oversubscribe), with which 22.05
   * changes nothing and says nothing.
   */
  private void update(String id, ObjectNode fields, String what, String user) {
    endpoint.post(user, "/slurm/v0.0.38/job/" + id, fields, what);
  }

  @Override
  public void cancel(String id, String user) {
    try {
      call("cancel job " + id, () -> {
        api(user).slurmV0038CancelJob(id, null);
        return null;
      });
    } catch (HandlerException e) {
      if (e.category() != Category.NOT_FOUND && !e.getMessage().contains("error " + RestErrors.ALREADY_DONE)) {
        throw e;
      }
    }
  }

  private static SlurmJob job(V0038JobResponseProperties j) {
    long limit = longOf(j.getTimeLimit());
    String state = upper(j.getJobState());
    OptionalInt exit = OptionalInt.empty();
    if (j.getExitCode() != null && !state.equals("PENDING") && !state.equals("RUNNING")) {
      // v0.0.38 gives the wait status: the exit code in the high byte, a signal in the low bits.
      int status = j.getExitCode();
      exit = OptionalInt.of((status & 0x7f) != 0 ? 128 + (status & 0x7f) : (status >> 8) & 0xff);
    }
    // v0.0.38 leaves an array's first record without a task id until it is its last task
    SlurmArray array = SlurmArray.of(intOf(j.getArrayJobId()), j.getArrayTaskId() == null ? null : (long) j.getArrayTaskId(),
        j.getArrayTaskString(), j.getAdminComment());
    SlurmLayout layout = SlurmLayout.of(intOf(j.getNodeCount()), intOf(j.getTasks()), intOf(j.getCpus()), j.getTresPerNode(),
        j.getTresPerJob(), j.getTresPerTask(), j.getTresPerSocket());
    return new SlurmJob(String.valueOf(j.getJobId()), state, nullToEmpty(j.getPartition()), intOf(j.getCpus()),
        SlurmJob.memoryMb(intOf(j.getMemoryPerNode()), intOf(j.getMemoryPerCpu()), intOf(j.getCpus())),
        limit == INFINITE || limit == NO_VAL ? -1 : limit * 60, exit, nullToEmpty(j.getStateReason()), nullToEmpty(j.getUserName()),
        SlurmJob.federable(j.getAdminComment(), array, intOf(j.getArrayMaxTasks())), nullToEmpty(j.getComment()),
        nullToEmpty(j.getCurrentWorkingDirectory()), layout.staysHome(), array, layout.layout());
  }

  private void check(String what, List<V0038Error> errors) {
    if (errors != null && !errors.isEmpty()) {
      V0038Error e = errors.get(0);
      throw RestErrors.reported(what, endpoint.url(), e.getErrorNumber() == null ? 0 : e.getErrorNumber(), e.getError());
    }
  }

  private static String upper(String s) {
    return s == null ? "UNKNOWN" : s.toUpperCase(Locale.ROOT);
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }

  private static int intOf(Integer i) {
    return i == null ? 0 : i;
  }

  private static long longOf(Long l) {
    return l == null ? 0 : l;
  }
}
