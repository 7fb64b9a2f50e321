package org.coalition.slurm;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Consumer;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.PilotSpec;
import org.coalition.slurm.rest.v0042.api.SlurmApi;
import org.coalition.slurm.rest.v0042.invoker.ApiClient;
import org.coalition.slurm.rest.v0042.invoker.ApiException;
import org.coalition.slurm.rest.v0042.model.V0042JobDescMsg;
import org.coalition.slurm.rest.v0042.model.V0042JobInfo;
import org.coalition.slurm.rest.v0042.model.V0042JobSubmitReq;
import org.coalition.slurm.rest.v0042.model.V0042KillJobsRespJob;
import org.coalition.slurm.rest.v0042.model.V0042Node;
import org.coalition.slurm.rest.v0042.model.V0042OpenapiError;
import org.coalition.slurm.rest.v0042.model.V0042OpenapiNodesResp;
import org.coalition.slurm.rest.v0042.model.V0042Uint32NoValStruct;
import org.coalition.slurm.rest.v0042.model.V0042Uint64NoValStruct;

/**
 * REST v0.0.42 (Slurm 24.11 and later). Answers carry the controller's own {@code last_update},
 * which is what the next poll sends; {@code GET /jobs/state/} lists ids and states only.
 */
final class V0042Rest extends RestAdapter<SlurmApi> {

  V0042Rest(RestEndpoint endpoint, String observer) {
    super(endpoint, observer);
    connected(call("ping", () -> api(observer).slurmV0042GetPing()).getMeta().getSlurm().getRelease());
  }

  @Override
  public String version() {
    return "v0.0.42";
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
    var answer = unlessUnchanged("list jobs", () -> api(observer).slurmV0042GetJobs(since > 0 ? Long.toString(since) : null, null));
    if (answer == null) {
      return null;
    }
    check("list jobs", answer.getErrors());
    long lastUpdate = number(answer.getLastUpdate());
    // Nothing changed since the update time: no jobs, and a last update of 0.
    if (since > 0 && lastUpdate == 0) {
      return null;
    }
    List<SlurmJob> jobs = new ArrayList<>();
    for (V0042JobInfo j : answer.getJobs()) {
      jobs.add(job(j));
    }
    return new Snapshot<>(jobs, lastUpdate);
  }

  @Override
  public Map<String, String> jobStates(Collection<String> ids) {
    // The published document gives this call the full job schema; 24.11 answers
    // {"jobs": [{"job_id": "1", "state": ["PENDING"]}]}, so it is read as a tree.
    String query = ids == null || ids.isEmpty() ? "" : "?job_id=" + String.join(",", ids);
    JsonNode answer = endpoint.get(observer, "/slurm/v0.0.42/jobs/state/" + query, "list job states");
    JsonNode jobs = answer.path("jobs");
    if (!jobs.isArray()) {
      throw new HandlerException(Category.PROTOCOL, "list job states: slurmrestd at " + endpoint.url() + " answered without a jobs list");
    }
    Map<String, String> states = new HashMap<>();
    for (JsonNode j : jobs) {
      JsonNode state = j.path("state");
      states.put(j.path("job_id").asText(), state.isArray() && state.size() > 0 ? state.get(0).asText() : "UNKNOWN");
    }
    return states;
  }

  @Override
  public List<SlurmJob> records(String id) {
    return unlessNotFound(() -> {
      var answer = call("get job " + id, () -> api(observer).slurmV0042GetJob(id, null, null));
      check("get job " + id, answer.getErrors());
      return answer.getJobs().stream().map(V0042Rest::job).toList();
    });
  }

  @Override
  public Snapshot<SlurmNode> nodes(long since) {
    if (since > 0) {
      try {
        var answer = unlessUnchanged("list nodes", () -> api(observer).slurmV0042GetNodes(Long.toString(since), null));
        return answer == null ? null : nodes(answer);
      } catch (HandlerException e) {
        // 24.11 answers some polls with an update time by HTTP 500 "Unable to query partitions"
        // (its partitions did not change while its nodes did); the whole list still works.
        if (e.category() != Category.UNAVAILABLE) {
          throw e;
        }
      }
    }
    return nodes(call("list nodes", () -> api(observer).slurmV0042GetNodes(null, null)));
  }

  private Snapshot<SlurmNode> nodes(V0042OpenapiNodesResp answer) {
    check("list nodes", answer.getErrors());
    List<SlurmNode> nodes = new ArrayList<>();
    for (V0042Node n : answer.getNodes()) {
      Set<String> states = new HashSet<>();
      n.getState().forEach(s -> states.add(s.getValue()));
      nodes.add(new SlurmNode(n.getName(), states, n.getCpus() == null ? 0 : n.getCpus(), n.getAllocCpus() == null ? 0 : n.getAllocCpus(),
          n.getRealMemory() == null ? 0 : n.getRealMemory(), SlurmLayout.nodeGres(n.getGres()),
          SlurmLayout.nodeGres(n.getGresUsed()), n.getAllocMemory() == null ? 0 : n.getAllocMemory()));
    }
    return new Snapshot<>(nodes, number(answer.getLastUpdate()));
  }

  @Override
  public String submit(PilotSpec spec, String script) {
    V0042JobDescMsg job = new V0042JobDescMsg();
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
      job.setMinimumNodes(spec.layout().nodes());
      job.setMaximumNodes(spec.layout().nodes());
      job.setTasksPerNode(SlurmPilots.tasksPerNode(spec));
    }
    job.setTresPerNode(SlurmPilots.gresPerNode(spec, "gres/"));
    if (spec.memoryMb() > 0) {
      job.setMemoryPerNode(new V0042Uint64NoValStruct().set(true).infinite(false).number(spec.memoryMb()));
    }
    job.setTimeLimit(new V0042Uint32NoValStruct().set(true).infinite(false).number(Math.toIntExact(spec.walltimeMinutes())));
    job.setRequeue(false);
    job.setHold(spec.held());
    job.setCurrentWorkingDirectory(spec.workingDirectory());
    job.setStandardOutput(spec.output());
    job.setStandardError(spec.output());
    job.setEnvironment(SlurmPilots.environmentLines(spec));
    V0042JobSubmitReq submission = new V0042JobSubmitReq();
    submission.setJob(job);
    submission.setScript(script);
    String what = "submit pilot " + spec.name() + " as " + spec.account();
    var answer = call(what, () -> api(spec.account()).slurmV0042PostJobSubmit(submission));
    check(what, answer.getErrors());
    if (answer.getJobId() == null) {
      throw new HandlerException(Category.PROTOCOL, what + ": slurmrestd at " + endpoint.url() + " answered without a job id");
    }
    return answer.getJobId().toString();
  }

  @Override
  public void hold(String id, boolean hold, String user) {
    update(id, (hold ? "hold" : "release") + " job " + id, user, u -> u.setHold(hold));
  }

  @Override
  public void releaseAhead(String id, int points, String user) {
    update(id, "release job " + id + " ahead", user, u -> {
      u.setHold(false);
      u.setNice(-points);
    });
  }

  @Override
  public void comment(String id, String comment, String user) {
    update(id, "set the comment of job " + id, user, u -> u.setComment(comment));
  }

  @Override
  public void shrink(String id, int minutes, String user) {
    update(id, "shrink job " + id + " for its replay", user, u -> {
      u.setMinimumNodes(1);
      u.setMaximumNodes(1);
      u.setTasks(1);
      u.setCpusPerTask(1);
      u.setMinimumCpus(1);
      u.setMinimumCpusPerNode(1);
      u.setTimeLimit(new V0042Uint32NoValStruct().set(true).infinite(false).number(minutes));
      u.setMemoryPerNode(new V0042Uint64NoValStruct().set(true).infinite(false).number((long) REPLAY_MEMORY_MB));
    });
  }

  /** One job update, as {@code user}: {@code change} sets the fields to change, the others stay unset. */
  private void update(String id, String what, String user, Consumer<V0042JobDescMsg> change) {
    V0042JobDescMsg update = new V0042JobDescMsg();
    change.accept(update);
    var answer = call(what, () -> api(user).slurmV0042PostJob(id, update));
    check(what, answer.getErrors());
  }

  @Override
  public void cancel(String id, String user) {
    String what = "cancel job " + id;
    var answer = call(what, () -> api(user).slurmV0042DeleteJob(id, null, null));
    check(what, answer.getErrors());
    for (V0042KillJobsRespJob s : answer.getStatus()) {
      var error = s.getError();
      int code = error == null || error.getCode() == null ? 0 : error.getCode();
      if (code != 0 && code != RestErrors.INVALID_JOB_ID && code != RestErrors.ALREADY_DONE) {
        throw RestErrors.reported(what, endpoint.url(), code, error.getMessage());
      }
    }
  }

  private static SlurmJob job(V0042JobInfo j) {
    String state = baseState(j);
    V0042Uint32NoValStruct limit = j.getTimeLimit();
    long seconds = limit == null || !Boolean.TRUE.equals(limit.getSet()) || Boolean.TRUE.equals(limit.getInfinite()) ? -1 : limit.getNumber() * 60L;
    OptionalInt exit = OptionalInt.empty();
    var code = j.getExitCode();
    if (code != null && code.getReturnCode() != null && Boolean.TRUE.equals(code.getReturnCode().getSet())
        && !state.equals("PENDING") && !state.equals("RUNNING")) {
      exit = OptionalInt.of(code.getReturnCode().getNumber());
    }
    int cpus = (int) number(j.getCpus());
    SlurmArray array = SlurmArray.of(number(j.getArrayJobId()), setOrNull(j.getArrayTaskId()), j.getArrayTaskString(), j.getAdminComment());
    SlurmLayout layout = SlurmLayout.of(number(j.getNodeCount()), number(j.getTasks()), cpus, j.getTresPerNode(), j.getTresPerJob(),
        j.getTresPerTask(), j.getTresPerSocket());
    return new SlurmJob(String.valueOf(j.getJobId()), state, j.getPartition() == null ? "" : j.getPartition(),
        cpus, SlurmJob.memoryMb(number(j.getMemoryPerNode()), number(j.getMemoryPerCpu()), cpus), seconds, exit,
        j.getStateReason() == null ? "" : j.getStateReason(), j.getUserName() == null ? "" : j.getUserName(),
        SlurmJob.federable(j.getAdminComment(), array, number(j.getArrayMaxTasks())),
        j.getComment() == null ? "" : j.getComment(), j.getCurrentWorkingDirectory() == null ? "" : j.getCurrentWorkingDirectory(),
        layout.staysHome(), array, layout.layout());
  }

  /** The first of a job's states is its base state; the others are flags (COMPLETING, REQUEUED ...). */
  private static String baseState(V0042JobInfo j) {
    return j.getJobState() == null || j.getJobState().isEmpty() ? "UNKNOWN" : j.getJobState().get(0).getValue();
  }

  private static long number(V0042Uint64NoValStruct n) {
    return n == null || n.getNumber() == null ? 0 : n.getNumber();
  }

  /** A number Slurm may leave unset (an array's first record has no task id until its last task), or null. */
  private static Long setOrNull(V0042Uint32NoValStruct n) {
    return n == null || !Boolean.TRUE.equals(n.getSet()) || n.getNumber() == null ? null : Long.valueOf(n.getNumber());
  }

  private static long number(V0042Uint32NoValStruct n) {
    return n == null || n.getNumber() == null ? 0 : n.getNumber();
  }

  private void check(String what, List<V0042OpenapiError> errors) {
    if (errors != null && !errors.isEmpty()) {
      V0042OpenapiError e = errors.get(0);
      throw RestErrors.reported(what, endpoint.url(), e.getErrorNumber() == null ? 0 : e.getErrorNumber(),
          RestErrors.text(e.getDescription(), e.getError()));
    }
  }

}
