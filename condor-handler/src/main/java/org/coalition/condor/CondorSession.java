package org.coalition.condor;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.coalition.drmaa.ControlCall;
import org.coalition.drmaa.JobIds;
import org.coalition.drmaa.SessionTemplates;
import org.coalition.handler.HandlerException;
import org.coalition.handler.LocalUsers;
import org.coalition.handler.Tool;
import org.ggf.drmaa.AlreadyActiveSessionException;
import org.ggf.drmaa.DeniedByDrmException;
import org.ggf.drmaa.DrmCommunicationException;
import org.ggf.drmaa.DrmaaException;
import org.ggf.drmaa.DrmsInitException;
import org.ggf.drmaa.ExitTimeoutException;
import org.ggf.drmaa.InternalException;
import org.ggf.drmaa.InvalidJobException;
import org.ggf.drmaa.JobInfo;
import org.ggf.drmaa.JobTemplate;
import org.ggf.drmaa.NoActiveSessionException;
import org.ggf.drmaa.Session;
import org.ggf.drmaa.Version;

/**
 * The standard DRMAA 1.0 Java {@link Session} on HTCondor 9+, which has no DRMAA library, through
 * its own tools and no Python: a job template becomes a submit description
 * ({@link CondorSubmission}) for {@code condor_submit -terse}; {@code control} is
 * {@code condor_suspend}, {@code condor_continue}, {@code condor_hold}, {@code condor_release} or
 * {@code condor_rm}; states and results come from {@code condor_q -json} and {@code condor_history
 * -json}, polled while waiting. Jobs are submitted as the session's user (the daemon's own user
 * when none is given). A process has one active session, as DRMAA 1.0 has it.
 */
public final class CondorSession implements Session {
  private static final AtomicBoolean ACTIVE = new AtomicBoolean();
  private static final Duration POLL = Duration.ofMillis(500);
  /**
   * A job id HTCondor's tools take: CLUSTER.PROC, or a CLUSTER for all of its jobs (as Grid Engine
   * takes JOB.TASK or a JOB); anything else is not a job id at all (JobIds).
   */
  private static final Pattern WELL_FORMED = Pattern.compile("\\d{1,10}(?:\\.\\d{1,9})?");
  private static final String ID_EXAMPLE = "1234.0";

  private final CondorTools tools;
  private final Optional<String> user;
  private final CondorJobs jobs;
  private final String implementation = "Coalition condor-handler (HTCondor command-line tools)";
  private volatile String id;
  private volatile String home;
  /** The session's jobs not yet reaped or disposed of. */
  private final Set<String> open = ConcurrentHashMap.newKeySet();
  private final SessionTemplates templates = new SessionTemplates(this);

  /**
   * A session that submits as {@code user}.
   *
   * @param tools HTCondor's tools
   * @param user the jobs' user; empty for the process's own
   */
  public CondorSession(CondorTools tools, Optional<String> user) {
    this.tools = tools;
    this.user = user;
    this.jobs = new CondorJobs(tools);
  }

  @Override
  public void init(String contact) throws DrmaaException {
    if (!ACTIVE.compareAndSet(false, true)) {
      throw new AlreadyActiveSessionException("drmaa_init: a DRMAA session is already active in this process");
    }
    try {
      CondorHandler.version(tools);
      home = user.isEmpty() ? System.getProperty("user.home") : LocalUsers.find(user.get()).map(LocalUsers.User::home)
          .orElseThrow(() -> new HandlerException(HandlerException.Category.NOT_FOUND, "no account " + user.get() + " here (getent passwd)"));
    } catch (HandlerException e) {
      ACTIVE.set(false);
      throw new DrmsInitException("drmaa_init: " + e.getMessage());
    }
    id = "condor-session-" + UUID.randomUUID();
  }

  @Override
  public void exit() throws DrmaaException {
    active("drmaa_exit");
    id = null;
    open.clear();
    templates.deleteAll();
    ACTIVE.set(false);
  }

  private void active(String call) throws NoActiveSessionException {
    if (id == null) {
      throw new NoActiveSessionException(call + ": no active session (call init first)");
    }
  }

  @Override
  public JobTemplate createJobTemplate() throws DrmaaException {
    active("drmaa_allocate_job_template");
    return templates.create(CondorSubmission.OPTIONAL);
  }

  @Override
  public void deleteJobTemplate(JobTemplate jt) throws DrmaaException {
    templates.delete(jt);
  }

  @Override
  public String runJob(JobTemplate template) throws DrmaaException {
    return submit("drmaa_run_job", template, List.of(-1)).get(0);
  }

  @Override
  public List<String> runBulkJobs(JobTemplate template, int start, int end, int incr) throws DrmaaException {
    if (start < 1 || end < start || incr < 1) {
      throw new IllegalArgumentException("drmaa_run_bulk_jobs: tasks " + start + ".." + end + " by " + incr
          + " (need 1 <= start <= end and incr >= 1)");
    }
    List<Integer> indices = new ArrayList<>();
    for (int i = start; i <= end; i += incr) {
      indices.add(i);
    }
    return submit("drmaa_run_bulk_jobs", template, indices);
  }

  /** Submits one job per index ({@code -1}: no index); returns their ids. */
  private List<String> submit(String call, JobTemplate template, List<Integer> indices) throws DrmaaException {
    active(call);
    String text = CondorSubmission.describe(call, templates.check(template, call), id, home, indices);
    Tool.Result r;
    try {
      r = tools.runAs(user, "condor_submit", List.of("-terse"), text);
    } catch (HandlerException e) {
      throw new DrmCommunicationException(call + ": " + e.getMessage());
    }
    if (r.exitCode() != 0) {
      String words = (r.stderr().isBlank() ? r.stdout() : r.stderr()).strip();
      throw words.contains("Failed to connect") || words.contains("Can't find address")
          ? new DrmCommunicationException(call + ": condor_submit: " + words)
          : new DeniedByDrmException(call + ": condor_submit refused the job: " + words);
    }
    List<String> ids = CondorJobs.submitted(r.stdout());
    if (ids.isEmpty()) {
      throw new InternalException(call + ": condor_submit -terse printed no job ids: " + r.stdout().strip());
    }
    open.addAll(ids);
    return ids;
  }

  @Override
  public void control(String jobId, int action) throws DrmaaException {
    String[] commands = {"condor_suspend", "condor_continue", "condor_hold", "condor_release", "condor_rm"};
    String call = ControlCall.describe(jobId, action);
    JobIds.inForm(call, jobId, WELL_FORMED, ID_EXAMPLE, JOB_IDS_SESSION_ALL);
    active(call);
    String tool = commands[action];
    List<String> args;
    if (JOB_IDS_SESSION_ALL.equals(jobId)) {
      if (open.isEmpty()) {
        return;
      }
      args = List.of("-constraint", "CoalitionDrmaaSession == \"" + id + "\"");
    } else {
      args = List.of(jobId);
    }
    Tool.Result r = run(call, tool, args);
    if (CondorTools.saysNotFound(r)) {
      if (JOB_IDS_SESSION_ALL.equals(jobId)) {
        return;
      }
      throw new InvalidJobException(call + ": HTCondor has no job " + jobId + " in its queue: " + (r.stdout() + r.stderr()).strip());
    }
    if (r.exitCode() != 0) {
      throw new DeniedByDrmException(call + ": " + tool + " failed (exit " + r.exitCode() + "): " + (r.stdout() + r.stderr()).strip());
    }
  }

  private Tool.Result run(String call, String tool, List<String> args) throws DrmCommunicationException {
    try {
      return tools.run(tool, args, null);
    } catch (HandlerException e) {
      throw new DrmCommunicationException(call + ": " + e.getMessage());
    }
  }

  private Map<String, JsonNode> ads(String call, List<String> ids) throws DrmCommunicationException {
    try {
      return jobs.find(ids);
    } catch (HandlerException e) {
      if (e.category() == HandlerException.Category.UNAVAILABLE) {
        throw new DrmCommunicationException(call + ": " + e.getMessage());
      }
      throw new InternalException(call + ": " + e.getMessage());
    }
  }

  @Override
  public void synchronize(List<String> jobIds, long timeout, boolean dispose) throws DrmaaException {
    String call = "drmaa_synchronize";
    JobIds.notNull(call, jobIds).forEach(i -> JobIds.inForm(call, i, WELL_FORMED, ID_EXAMPLE, JOB_IDS_SESSION_ALL));
    active(call);
    List<String> ids = jobIds.contains(JOB_IDS_SESSION_ALL) ? List.copyOf(open) : List.copyOf(jobIds);
    long deadline = deadline(JobIds.timeout(call, timeout));
    while (true) {
      Map<String, JsonNode> ads = ads(call, ids);
      boolean all = true;
      for (String id : ids) {
        JsonNode ad = ads.get(id);
        // a job HTCondor does not know and the session did not submit has nothing to wait for:
        // Grid Engine's binding returns for it too
        all &= ad == null && !open.contains(id) || ad != null && CondorJobs.finished(ad);
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
  public JobInfo wait(String jobId, long timeout) throws DrmaaException {
    String call = "drmaa_wait(" + jobId + ")";
    JobIds.inForm(call, jobId, WELL_FORMED, ID_EXAMPLE, JOB_IDS_SESSION_ANY);
    JobIds.timeout(call, timeout);
    active(call);
    boolean any = JOB_IDS_SESSION_ANY.equals(jobId);
    if (!any && !open.contains(jobId)) {
      throw new InvalidJobException(call + ": " + jobId + " is not a job of this session, or was reaped already");
    }
    long deadline = deadline(timeout);
    while (true) {
      if (!any && !open.contains(jobId)) {
        throw new InvalidJobException(call + ": " + jobId + " was reaped meanwhile by another call (wait for any job, or synchronize with dispose)");
      }
      List<String> ids = any ? List.copyOf(open) : List.of(jobId);
      if (ids.isEmpty()) {
        throw new InvalidJobException(call + ": the session has no job left to wait for");
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

  private static long deadline(long timeoutSeconds) {
    // more seconds than nanoTime can count (292 years) is forever too
    return timeoutSeconds < 0 || timeoutSeconds > Long.MAX_VALUE / 2_000_000_000L ? Long.MAX_VALUE
        : System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
  }

  private static void pause(String call, long deadline) throws ExitTimeoutException {
    long left = deadline - System.nanoTime();
    if (left <= 0) {
      throw new ExitTimeoutException(call + ": the job(s) did not end in time");
    }
    try {
      Thread.sleep(Math.min(POLL.toMillis(), Math.max(1, left / 1_000_000)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InternalException(call + ": interrupted");
    }
  }

  @Override
  public int getJobProgramStatus(String jobId) throws DrmaaException {
    String call = "drmaa_job_ps(" + jobId + ")";
    JobIds.inForm(call, jobId, WELL_FORMED, ID_EXAMPLE, null);
    active(call);
    JsonNode ad = ads(call, List.of(jobId)).get(jobId);
    if (ad == null) {
      throw new InvalidJobException(call + ": HTCondor knows no job " + jobId);
    }
    return switch (CondorJobs.status(ad)) {
      case CondorJobs.IDLE -> QUEUED_ACTIVE;
      case CondorJobs.RUNNING, CondorJobs.TRANSFERRING_OUTPUT -> RUNNING;
      case CondorJobs.SUSPENDED -> USER_SUSPENDED;
      case CondorJobs.HELD -> CondorJobs.USER_HOLDS.contains(ad.path("HoldReasonCode").asInt()) ? USER_ON_HOLD : SYSTEM_ON_HOLD;
      case CondorJobs.REMOVED -> FAILED;
      default -> DONE;
    };
  }

  @Override
  public String getContact() {
    return id != null ? id : "condor";
  }

  @Override
  public Version getVersion() {
    return new Version(1, 0);
  }

  @Override
  public String getDrmSystem() {
    try {
      return "HTCondor " + CondorHandler.version(tools);
    } catch (HandlerException e) {
      throw new InternalException("drmaa_get_DRM_system: " + e.getMessage());
    }
  }

  @Override
  public String getDrmaaImplementation() {
    return implementation;
  }
}
