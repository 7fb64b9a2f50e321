package org.coalition.slurm;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Consumer;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.PilotSpec;
import org.coalition.slurm.rest.v0040.api.SlurmApi;
import org.coalition.slurm.rest.v0040.invoker.ApiClient;
import org.coalition.slurm.rest.v0040.invoker.ApiException;
import org.coalition.slurm.rest.v0040.model.V0040JobDescMsg;
import org.coalition.slurm.rest.v0040.model.V0040JobInfo;
import org.coalition.slurm.rest.v0040.model.V0040JobSubmitReq;
import org.coalition.slurm.rest.v0040.model.V0040Node;
import org.coalition.slurm.rest.v0040.model.V0040OpenapiError;
import org.coalition.slurm.rest.v0040.model.V0040OpenapiNodesResp;
import org.coalition.slurm.rest.v0040.model.V0040Uint32NoVal;
import org.coalition.slurm.rest.v0040.model.V0040Uint64NoVal;

/**
 * REST v0.0.40 (Slurm 23.11 and 24.05; 24.11 still serves it). There is no state-only job list: a
 * poll after any change in the job table returns the whole list. Its {@code update_time} takes
 * Slurm's time syntax, not a Unix time (24.11 refuses {@code update_time=1795232518}: "Unable to
 * convert Data type"), so a poll asks for changes since {@code now-Nseconds}, N measured on the
 * client's clock since the previous request plus a second: the controller's clock may be set
 * differently, only both must run at the same pace.
 */
final class V0040Rest extends RestAdapter<SlurmApi> {
  private final Clock clock;

  V0040Rest(RestEndpoint endpoint, String observer, Clock clock) {
    super(endpoint, observer);
    this.clock = clock;
    connected(call("ping", () -> api(observer).slurmV0040GetPing()).getMeta().getSlurm().getRelease());
  }

  @Override
  public String version() {
    return "v0.0.40";
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

  /** {@code since} (a client time from an earlier snapshot) as v0.0.40 reads it, or null for everything. */
  private String relative(long since) {
    return since > 0 ? "now-" + Math.max(1, clock.instant().getEpochSecond() - since) + "seconds" : null;
  }

  @Override
  public Snapshot<SlurmJob> jobs(long since) {
    long now = clock.instant().getEpochSecond() - 1;
    var answer = unlessUnchanged("list jobs", () -> api(observer).slurmV0040GetJobs(relative(since), null));
    if (answer == null) {
      return null;
    }
    check("list jobs", answer.getErrors());
    // Nothing changed since then: no jobs, and a last update of 0.
    if (since > 0 && number(answer.getLastUpdate()) == 0) {
      return null;
    }
    List<SlurmJob> jobs = new ArrayList<>();
    for (V0040JobInfo j : answer.getJobs()) {
      jobs.add(job(j));
    }
    return new Snapshot<>(jobs, now);
  }

  @Override
  public Map<String, String> jobStates(Collection<String> ids) {
    return null;  // v0.0.40 has no state-only call
  }

  @Override
  public List<SlurmJob> records(String id) {
    return unlessNotFound(() -> {
      var answer = call("get job " + id, () -> api(observer).slurmV0040GetJob(id, null, null));
      check("get job " + id, answer.getErrors());
      return answer.getJobs().stream().map(V0040Rest::job).toList();
    });
  }

  @Override
  public Snapshot<SlurmNode> nodes(long since) {
    long now = clock.instant().getEpochSecond() - 1;
    if (since > 0) {
      try {
        var answer = unlessUnchanged("list nodes", () -> api(observer).slurmV0040GetNodes(relative(since), null));
        return answer == null || number(answer.getLastUpdate()) == 0 ? null : nodes(answer, now);
      } catch (HandlerException e) {
        // As with v0.0.42: an update-time poll sometimes fails with HTTP 500; the whole list works.
        if (e.category() != Category.UNAVAILABLE) {
          throw e;
        }
      }
    }
    return nodes(call("list nodes", () -> api(observer).slurmV0040GetNodes(null, null)), now);
  }

  private Snapshot<SlurmNode> nodes(V0040OpenapiNodesResp answer, long now) {
    check("list nodes", answer.getErrors());
    List<SlurmNode> nodes = new ArrayList<>();
    for (V0040Node n : answer.getNodes()) {
      Set<String> states = new HashSet<>();
      n.getState().forEach(s -> states.add(s.getValue()));
      nodes.add(new SlurmNode(n.getName(), states, n.getCpus() == null ? 0 : n.getCpus(), n.getAllocCpus() == null ? 0 : n.getAllocCpus(),
          n.getRealMemory() == null ? 0 : n.getRealMemory(), SlurmLayout.nodeGres(n.getGres()),
          SlurmLayout.nodeGres(n.getGresUsed()), n.getAllocMemory() == null ? 0 : n.getAllocMemory()));
    }
    return new Snapshot<>(nodes, now);
  }

  @Override
  public String submit(PilotSpec spec, String script) {
    V0040JobDescMsg job = new V0040JobDescMsg();
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
      job.setMemoryPerNode(new V0040Uint64NoVal().set(true).infinite(false).number(spec.memoryMb()));
    }
    job.setTimeLimit(new V0040Uint32NoVal().set(true).infinite(false).number(spec.walltimeMinutes()));
    job.setRequeue(false);
    job.setHold(spec.held());
    job.setCurrentWorkingDirectory(spec.workingDirectory());
    job.setStandardOutput(spec.output());
    job.setStandardError(spec.output());
    job.setEnvironment(SlurmPilots.environmentLines(spec));
    V0040JobSubmitReq submission = new V0040JobSubmitReq();
    submission.setJob(job);
    submission.setScript(script);
    String what = "submit pilot " + spec.name() + " as " + spec.account();
    var answer = call(what, () -> api(spec.account()).slurmV0040PostJobSubmit(submission));
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
      u.setTimeLimit(new V0040Uint32NoVal().set(true).infinite(false).number((long) minutes));
      u.setMemoryPerNode(new V0040Uint64NoVal().set(true).infinite(false).number((long) REPLAY_MEMORY_MB));
    });
  }

  /** One job update, as {@code user}: {@code change} sets the fields to change, the others stay unset. */
  private void update(String id, String what, String user, Consumer<V0040JobDescMsg> change) {
    V0040JobDescMsg update = new V0040JobDescMsg();
    change.accept(update);
    var answer = call(what, () -> api(user).slurmV0040PostJob(id, update));
    check(what, answer.getErrors());
  }

  @Override
  public void cancel(String id, String user) {
    String what = "cancel job " + id;
    try {
      var answer = call(what, () -> api(user).slurmV0040DeleteJob(id, null, null));
      check(what, answer.getErrors());
    } catch (HandlerException e) {
      if (e.category() != Category.NOT_FOUND && !e.getMessage().contains("error " + RestErrors.ALREADY_DONE)) {
        throw e;
      }
    }
  }

  private static SlurmJob job(V0040JobInfo j) {
    String state = j.getJobState() == null || j.getJobState().isEmpty() ? "UNKNOWN" : j.getJobState().get(0).getValue();
    V0040Uint32NoVal limit = j.getTimeLimit();
    long seconds = limit == null || !Boolean.TRUE.equals(limit.getSet()) || Boolean.TRUE.equals(limit.getInfinite()) ? -1 : limit.getNumber() * 60L;
    OptionalInt exit = OptionalInt.empty();
    var code = j.getExitCode();
    if (code != null && code.getReturnCode() != null && Boolean.TRUE.equals(code.getReturnCode().getSet())
        && !state.equals("PENDING") && !state.equals("RUNNING")) {
      exit = OptionalInt.of(Math.toIntExact(code.getReturnCode().getNumber()));
    }
    int cpus = Math.toIntExact(number(j.getCpus()));
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

  private static long number(V0040Uint64NoVal n) {
    return n == null || n.getNumber() == null ? 0 : n.getNumber();
  }

  /** A number Slurm may leave unset (an array's first record has no task id until its last task), or null. */
  private static Long setOrNull(V0040Uint32NoVal n) {
    return n == null || !Boolean.TRUE.equals(n.getSet()) || n.getNumber() == null ? null : Long.valueOf(n.getNumber());
  }

  private static long number(V0040Uint32NoVal n) {
    return n == null || n.getNumber() == null ? 0 : n.getNumber();
  }

  private void check(String what, List<V0040OpenapiError> errors) {
    if (errors != null && !errors.isEmpty()) {
      V0040OpenapiError e = errors.get(0);
      throw RestErrors.reported(what, endpoint.url(), e.getErrorNumber() == null ? 0 : e.getErrorNumber(),
          RestErrors.text(e.getDescription(), e.getError()));
    }
  }
}
