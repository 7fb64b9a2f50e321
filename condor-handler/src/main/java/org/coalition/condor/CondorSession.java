package org.coalition.condor;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.coalition.drmaa.DrmaaException;
import org.coalition.drmaa.JobInfo;
import org.coalition.drmaa.JobState;
import org.coalition.drmaa.JobTemplate;
import org.coalition.drmaa.Session;
import org.coalition.handler.HandlerException;
import org.coalition.handler.Tool;

/**
 * The DRMAA 1.0 Java API on HTCondor 9+, which has no DRMAA library, through its own tools: a job
 * template becomes a submit description for {@code condor_submit -terse}; {@code control} is
 * {@code condor_suspend}, {@code condor_continue}, {@code condor_hold}, {@code condor_release} or
 * {@code condor_rm}; states and results come from {@code condor_q -json} and {@code condor_history
 * -json}, polled while waiting. Jobs are submitted as the session's user (the daemon's own user
 * when none is given).
 *
 * <p>Supported template attributes: remote command, arguments, environment, working directory,
 * job name, input, output and error paths (a {@code host:} prefix is ignored: HTCondor's file
 * system is shared here), join files, submission state, hard wall-clock limit
 * ({@code allowed_job_duration}), e-mail ({@code notify_user}) and block e-mail, and a native
 * specification (submit-description lines, separated by newlines). The placeholders
 * {@code $drmaa_incr_ph$} and {@code $drmaa_wd_ph$} are expanded. Any other attribute is refused
 * with {@link DrmaaException.InvalidArgumentException}.
 */
public final class CondorSession implements Session {
  private static final AtomicBoolean ACTIVE = new AtomicBoolean();
  private static final Set<String> SCALARS = Set.of(JobTemplate.REMOTE_COMMAND, JobTemplate.JOB_SUBMISSION_STATE, JobTemplate.WORKING_DIRECTORY,
      JobTemplate.JOB_NAME, JobTemplate.INPUT_PATH, JobTemplate.OUTPUT_PATH, JobTemplate.ERROR_PATH, JobTemplate.JOIN_FILES,
      JobTemplate.HARD_WALLCLOCK_LIMIT, JobTemplate.NATIVE_SPECIFICATION, JobTemplate.BLOCK_EMAIL);
  private static final Duration POLL = Duration.ofMillis(500);

  private final CondorTools tools;
  private final Optional<String> user;
  private final CondorJobs jobs;
  private final String implementation = "Coalition condor-handler (HTCondor command-line tools)";
  private volatile String id;
  /** The session's jobs not yet reaped or disposed of. */
  private final Set<String> open = ConcurrentHashMap.newKeySet();

  /** A session that submits as {@code user} (empty: the process's own user). */
  public CondorSession(CondorTools tools, Optional<String> user) {
    this.tools = tools;
    this.user = user;
    this.jobs = new CondorJobs(tools);
  }

  @Override
  public void init(String contact) {
    if (!ACTIVE.compareAndSet(false, true)) {
      throw new DrmaaException.AlreadyActiveSessionException("drmaa_init: a DRMAA session is already active in this process");
    }
    try {
      CondorHandler.version(tools);
    } catch (HandlerException e) {
      ACTIVE.set(false);
      throw new DrmaaException.DrmsInitException("drmaa_init: " + e.getMessage());
    }
    id = "condor-session-" + UUID.randomUUID();
  }

  @Override
  public void exit() {
    active("drmaa_exit");
    id = null;
    open.clear();
    ACTIVE.set(false);
  }

  private void active(String call) {
    if (id == null) {
      throw new DrmaaException.NoActiveSessionException(call + ": no active session (call init first)");
    }
  }

  @Override
  public String runJob(JobTemplate template) {
    return submit("drmaa_run_job", template, List.of(-1)).get(0);
  }

  @Override
  public List<String> runBulkJobs(JobTemplate template, int start, int end, int incr) {
    if (start < 1 || end < start || incr < 1) {
      throw new DrmaaException.InvalidArgumentException("drmaa_run_bulk_jobs: tasks " + start + ".." + end + " by " + incr
          + " (need 1 <= start <= end and incr >= 1)");
    }
    List<Integer> indices = new ArrayList<>();
    for (int i = start; i <= end; i += incr) {
      indices.add(i);
    }
    return submit("drmaa_run_bulk_jobs", template, indices);
  }

  /** Submits one job per index ({@code -1}: no index); returns their ids. */
  private List<String> submit(String call, JobTemplate t, List<Integer> indices) {
    active(call);
    Map<String, String> s = t.scalars();
    for (String name : s.keySet()) {
      if (!SCALARS.contains(name)) {
        throw new DrmaaException.InvalidArgumentException(call + ": attribute " + name + " is not supported by the HTCondor back end");
      }
    }
    if (t.vectors().getOrDefault(JobTemplate.EMAIL, List.of()).size() > 1) {
      throw new DrmaaException.InvalidAttributeValueException(call + ": HTCondor notifies one address (notify_user), not several");
    }
    String command = s.get(JobTemplate.REMOTE_COMMAND);
    if (command == null || command.isBlank()) {
      throw new DrmaaException.ConflictingAttributeValuesException(call + ": a job template needs drmaa_remote_command");
    }
    String wd = s.getOrDefault(JobTemplate.WORKING_DIRECTORY, "");
    SubmitDescription d = new SubmitDescription();
    try {
      d.set("universe", "vanilla").set("executable", SubmitDescription.literal(command)).set("transfer_executable", "false")
          .set("should_transfer_files", "NO").set("+CoalitionDrmaaSession", "\"" + id + "\"")
          .arguments(t.vectors().getOrDefault(JobTemplate.ARGS, List.of()));
      Map<String, String> env = new LinkedHashMap<>();
      for (String kv : t.vectors().getOrDefault(JobTemplate.ENVIRONMENT, List.of())) {
        int eq = kv.indexOf('=');
        if (eq < 1) {
          throw new DrmaaException.InvalidAttributeFormatException(call + ": drmaa_v_env entry '" + kv + "' is not NAME=VALUE");
        }
        env.put(kv.substring(0, eq), kv.substring(eq + 1));
      }
      if (!env.isEmpty()) {
        d.environment(env);
      }
      if (!wd.isEmpty()) {
        d.set("initialdir", path(wd, wd));
      }
      if (s.containsKey(JobTemplate.JOB_NAME)) {
        d.set("batch_name", SubmitDescription.literal(s.get(JobTemplate.JOB_NAME)));
      }
      if (s.containsKey(JobTemplate.INPUT_PATH)) {
        d.set("input", path(s.get(JobTemplate.INPUT_PATH), wd));
      }
      String out = s.containsKey(JobTemplate.OUTPUT_PATH) ? path(s.get(JobTemplate.OUTPUT_PATH), wd) : "/dev/null";
      d.set("output", out);
      boolean join = "y".equals(s.get(JobTemplate.JOIN_FILES));
      d.set("error", join ? out : s.containsKey(JobTemplate.ERROR_PATH) ? path(s.get(JobTemplate.ERROR_PATH), wd) : "/dev/null");
      if ("drmaa_hold".equals(s.get(JobTemplate.JOB_SUBMISSION_STATE))) {
        d.set("hold", "true");
      }
      if (s.containsKey(JobTemplate.HARD_WALLCLOCK_LIMIT)) {
        d.set("allowed_job_duration", Long.toString(seconds(s.get(JobTemplate.HARD_WALLCLOCK_LIMIT), call)));
      }
      List<String> email = t.vectors().getOrDefault(JobTemplate.EMAIL, List.of());
      if (!email.isEmpty()) {
        d.set("notify_user", SubmitDescription.literal(email.get(0)));
      }
      d.set("notification", "y".equals(s.get(JobTemplate.BLOCK_EMAIL)) || email.isEmpty() ? "Never" : "Complete");
      if (s.containsKey(JobTemplate.NATIVE_SPECIFICATION)) {
        s.get(JobTemplate.NATIVE_SPECIFICATION).lines().map(String::strip).filter(l -> !l.isEmpty()).forEach(d::line);
      }
    } catch (IllegalArgumentException e) {
      throw new DrmaaException.InvalidAttributeValueException(call + ": " + e.getMessage());
    }
    StringBuilder text = new StringBuilder(d.toString());
    for (int index : indices) {
      text.append(index < 0 ? "" : "DrmaaIndex = " + index + "\n").append("queue\n");
    }
    Tool.Result r;
    try {
      r = tools.runAs(user, "condor_submit", List.of("-terse"), text.toString());
    } catch (HandlerException e) {
      throw new DrmaaException.DrmCommunicationException(call + ": " + e.getMessage());
    }
    if (r.exitCode() != 0) {
      String words = (r.stderr().isBlank() ? r.stdout() : r.stderr()).strip();
      throw words.contains("Failed to connect") || words.contains("Can't find address")
          ? new DrmaaException.DrmCommunicationException(call + ": condor_submit: " + words)
          : new DrmaaException.DeniedByDrmException(call + ": condor_submit refused the job: " + words);
    }
    List<String> ids = CondorJobs.submitted(r.stdout());
    if (ids.isEmpty()) {
      throw new DrmaaException.InternalException(call + ": condor_submit -terse printed no job ids: " + r.stdout().strip());
    }
    open.addAll(ids);
    return ids;
  }

  /** A DRMAA path ({@code [host]:path}, placeholders) as a submit-description value. */
  private static String path(String drmaaPath, String wd) {
    String p = drmaaPath.indexOf(':') >= 0 && !drmaaPath.startsWith("/") ? drmaaPath.substring(drmaaPath.indexOf(':') + 1) : drmaaPath;
    p = SubmitDescription.literal(p.replace(JobTemplate.WORKING_DIRECTORY_PLACEHOLDER, wd));
    return p.replace(SubmitDescription.literal(JobTemplate.PARAMETRIC_INDEX), "$(DrmaaIndex)");
  }

  private static long seconds(String value, String call) {
    try {
      long total = 0;
      for (String part : value.split(":")) {
        total = total * 60 + Long.parseLong(part);
      }
      return total;
    } catch (NumberFormatException e) {
      throw new DrmaaException.InvalidAttributeFormatException(call + ": drmaa_wct_hlimit '" + value + "' is not [[H:]M:]S");
    }
  }

  @Override
  public void control(String jobId, Action action) {
    String call = "drmaa_control(" + jobId + ", " + action + ")";
    active(call);
    String tool = switch (action) {
      case SUSPEND -> "condor_suspend";
      case RESUME -> "condor_continue";
      case HOLD -> "condor_hold";
      case RELEASE -> "condor_release";
      case TERMINATE -> "condor_rm";
    };
    List<String> args;
    if (JOB_IDS_SESSION_ALL.equals(jobId)) {
      if (open.isEmpty()) {
        return;
      }
      args = List.of("-constraint", "CoalitionDrmaaSession == \"" + id + "\"");
    } else if (CondorJobs.ID.matcher(jobId).matches()) {
      args = List.of(jobId);
    } else {
      throw new DrmaaException.InvalidJobException(call + ": '" + jobId + "' is not an HTCondor job id (CLUSTER.PROC)");
    }
    Tool.Result r = run(call, tool, args);
    if (CondorTools.saysNotFound(r)) {
      if (JOB_IDS_SESSION_ALL.equals(jobId)) {
        return;
      }
      throw new DrmaaException.InvalidJobException(call + ": HTCondor has no job " + jobId + " in its queue: " + (r.stdout() + r.stderr()).strip());
    }
    if (r.exitCode() != 0) {
      throw new DrmaaException.DeniedByDrmException(call + ": " + tool + " failed (exit " + r.exitCode() + "): " + (r.stdout() + r.stderr()).strip());
    }
  }

  private Tool.Result run(String call, String tool, List<String> args) {
    try {
      return tools.run(tool, args, null);
    } catch (HandlerException e) {
      throw new DrmaaException.DrmCommunicationException(call + ": " + e.getMessage());
    }
  }

  private Map<String, JsonNode> ads(String call, List<String> ids) {
    try {
      return jobs.find(ids);
    } catch (HandlerException e) {
      throw e.category() == HandlerException.Category.UNAVAILABLE ? new DrmaaException.DrmCommunicationException(call + ": " + e.getMessage())
          : new DrmaaException.InternalException(call + ": " + e.getMessage());
    }
  }

  @Override
  public void synchronize(List<String> jobIds, Duration timeout, boolean dispose) {
    String call = "drmaa_synchronize";
    active(call);
    List<String> ids = jobIds.contains(JOB_IDS_SESSION_ALL) ? List.copyOf(open) : List.copyOf(jobIds);
    long deadline = deadline(timeout);
    while (true) {
      Map<String, JsonNode> ads = ads(call, ids);
      boolean all = true;
      for (String id : ids) {
        JsonNode ad = ads.get(id);
        if (ad == null && !open.contains(id)) {
          throw new DrmaaException.InvalidJobException(call + ": job " + id + " is not a job of this session");
        }
        all &= ad != null && CondorJobs.finished(ad);
      }
      if (all) {
        if (dispose) {
          ids.forEach(open::remove);
        }
        return;
      }
      pause(call, deadline);
    }
  }

  @Override
  public JobInfo waitFor(String jobId, Duration timeout) {
    String call = "drmaa_wait(" + jobId + ")";
    active(call);
    boolean any = JOB_IDS_SESSION_ANY.equals(jobId);
    if (!any && !open.contains(jobId)) {
      throw new DrmaaException.InvalidJobException(call + ": " + jobId + " is not a job of this session, or was reaped already");
    }
    long deadline = deadline(timeout);
    while (true) {
      List<String> ids = any ? List.copyOf(open) : List.of(jobId);
      if (ids.isEmpty()) {
        throw new DrmaaException.InvalidJobException(call + ": the session has no job left to wait for");
      }
      Map<String, JsonNode> ads = ads(call, ids);
      for (String id : ids) {
        JsonNode ad = ads.get(id);
        if (ad != null && CondorJobs.finished(ad) && open.remove(id)) {
          return CondorJobs.info(id, ad);
        }
      }
      pause(call, deadline);
    }
  }

  private static long deadline(Duration timeout) {
    return timeout.isNegative() ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
  }

  private static void pause(String call, long deadline) {
    long left = deadline - System.nanoTime();
    if (left <= 0) {
      throw new DrmaaException.ExitTimeoutException(call + ": the job(s) did not end in time");
    }
    try {
      Thread.sleep(Math.min(POLL.toMillis(), Math.max(1, left / 1_000_000)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DrmaaException.InternalException(call + ": interrupted");
    }
  }

  @Override
  public JobState getJobProgramStatus(String jobId) {
    String call = "drmaa_job_ps(" + jobId + ")";
    active(call);
    JsonNode ad = CondorJobs.ID.matcher(jobId).matches() ? ads(call, List.of(jobId)).get(jobId) : null;
    if (ad == null) {
      throw new DrmaaException.InvalidJobException(call + ": HTCondor knows no job " + jobId);
    }
    return switch (CondorJobs.status(ad)) {
      case CondorJobs.IDLE -> JobState.QUEUED_ACTIVE;
      case CondorJobs.RUNNING, CondorJobs.TRANSFERRING_OUTPUT -> JobState.RUNNING;
      case CondorJobs.SUSPENDED -> JobState.USER_SUSPENDED;
      case CondorJobs.HELD -> CondorJobs.USER_HOLDS.contains(ad.path("HoldReasonCode").asInt()) ? JobState.USER_ON_HOLD : JobState.SYSTEM_ON_HOLD;
      case CondorJobs.REMOVED -> JobState.FAILED;
      default -> JobState.DONE;
    };
  }

  @Override
  public String getContact() {
    return id != null ? id : "condor";
  }

  @Override
  public String getVersion() {
    return "1.0";
  }

  @Override
  public String getDrmSystem() {
    try {
      return "HTCondor " + CondorHandler.version(tools);
    } catch (HandlerException e) {
      throw new DrmaaException.DrmCommunicationException("drmaa_get_DRM_system: " + e.getMessage());
    }
  }

  @Override
  public String getDrmaaImplementation() {
    return implementation;
  }
}
