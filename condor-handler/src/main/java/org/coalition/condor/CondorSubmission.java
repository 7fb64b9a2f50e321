package org.coalition.condor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.coalition.drmaa.CAttributes;
import org.coalition.drmaa.SessionTemplate;
import org.ggf.drmaa.ConflictingAttributeValuesException;
import org.ggf.drmaa.DrmaaException;
import org.ggf.drmaa.InvalidAttributeValueException;
import org.ggf.drmaa.JobTemplate;
import org.ggf.drmaa.PartialTimestamp;

/**
 * A DRMAA job template as an HTCondor submit description, one {@code queue} per job: the remote
 * command and arguments, the environment, the working directory ({@code initialdir}), the job
 * name ({@code batch_name}), input, output and error paths (a {@code host:} prefix dropped:
 * HTCondor's file system is shared here), joined files, the submission state ({@code hold}), the
 * start time ({@code deferral_time}, the timestamp resolved at submission; a past one is now), the
 * job category
 * (recorded as the job ad's {@code DrmaaJobCategory}, for a site's own policy), e-mail
 * ({@code notify_user}: one address) and blocked e-mail, the hard wall-clock limit
 * ({@code allowed_job_duration}), and the native specification (submit-description lines,
 * separated by newlines). The placeholders {@link JobTemplate#WORKING_DIRECTORY},
 * {@link JobTemplate#HOME_DIRECTORY} and {@link JobTemplate#PARAMETRIC_INDEX} are expanded.
 */
final class CondorSubmission {
  /** The optional attributes supported, by property name. */
  static final Set<String> OPTIONAL = Set.of("hardWallclockTimeLimit");
  /** How late after its start time a job may still start: ten years, that is, any time after it. */
  private static final long DEFERRAL_WINDOW = 10L * 365 * 24 * 3600;

  private CondorSubmission() {
  }

  /**
   * The submit description of a template's jobs.
   *
   * @param call the DRMAA call, for messages
   * @param t the template
   * @param session the session's id, recorded in each job's ad
   * @param home the home directory of the jobs' user, for {@link JobTemplate#HOME_DIRECTORY}
   * @param indices one job per index; {@code -1} for a job without one
   * @return the submit description
   * @throws DrmaaException when a value cannot be written for HTCondor
   */
  static String describe(String call, SessionTemplate t, String session, String home, List<Integer> indices) throws DrmaaException {
    CAttributes c = CAttributes.of(t);
    Map<String, String> s = c.scalars();
    List<String> email = c.vectors().getOrDefault(CAttributes.V_EMAIL, List.of());
    if (email.size() > 1) {
      throw new InvalidAttributeValueException(call + ": HTCondor notifies one address (notify_user), not " + email.size());
    }
    String command = s.get(CAttributes.REMOTE_COMMAND);
    if (command == null || command.isBlank()) {
      throw new ConflictingAttributeValuesException(call + ": a job template needs a remote command");
    }
    // no working directory: the home, as Grid Engine's library has it, so that $drmaa_wd_ph$ and the job agree
    String wd = s.getOrDefault(CAttributes.WD, JobTemplate.HOME_DIRECTORY);
    SubmitDescription d = new SubmitDescription();
    try {
      d.set("universe", "vanilla").set("executable", SubmitDescription.literal(command)).set("transfer_executable", "false")
          .set("should_transfer_files", "NO").set("+CoalitionDrmaaSession", "\"" + session + "\"")
          .arguments(c.vectors().getOrDefault(CAttributes.V_ARGV, List.of()));
      if (t.getJobEnvironment() != null && !t.getJobEnvironment().isEmpty()) {
        d.environment(new LinkedHashMap<>(t.getJobEnvironment()));
      }
      d.set("initialdir", path(wd, wd, home));
      if (s.containsKey(CAttributes.JOB_NAME)) {
        d.set("batch_name", SubmitDescription.literal(s.get(CAttributes.JOB_NAME)));
      }
      if (s.containsKey(CAttributes.JOB_CATEGORY)) {
        String category = s.get(CAttributes.JOB_CATEGORY).replace("\\", "\\\\").replace("\"", "\\\"");
        d.set("+DrmaaJobCategory", "\"" + SubmitDescription.literal(category) + "\"");
      }
      if (s.containsKey(CAttributes.INPUT_PATH)) {
        d.set("input", path(s.get(CAttributes.INPUT_PATH), wd, home));
      }
      String out = s.containsKey(CAttributes.OUTPUT_PATH) ? path(s.get(CAttributes.OUTPUT_PATH), wd, home) : "/dev/null";
      d.set("output", out);
      boolean join = s.containsKey(CAttributes.JOIN_FILES);
      d.set("error", join ? out : s.containsKey(CAttributes.ERROR_PATH) ? path(s.get(CAttributes.ERROR_PATH), wd, home) : "/dev/null");
      if (s.containsKey(CAttributes.JS_STATE)) {
        d.set("hold", "true");
      }
      PartialTimestamp start = t.getStartTime();
      long startAt = start == null ? 0 : start.getTimeInMillis() / 1000;
      if (startAt > System.currentTimeMillis() / 1000) {
        // a job that reaches its machine after deferral_time + deferral_window is held: a start time is the earliest, not the only one
        d.set("deferral_time", Long.toString(startAt)).set("deferral_window", Long.toString(DEFERRAL_WINDOW));
      }
      if (t.getHardWallclockTimeLimit() > 0) {
        d.set("allowed_job_duration", Long.toString(t.getHardWallclockTimeLimit()));
      }
      if (!email.isEmpty()) {
        d.set("notify_user", SubmitDescription.literal(email.get(0)));
      }
      d.set("notification", s.containsKey(CAttributes.BLOCK_EMAIL) || email.isEmpty() ? "Never" : "Complete");
      if (s.containsKey(CAttributes.NATIVE_SPECIFICATION)) {
        s.get(CAttributes.NATIVE_SPECIFICATION).lines().map(String::strip).filter(l -> !l.isEmpty()).forEach(d::line);
      }
    } catch (IllegalArgumentException e) {
      throw new InvalidAttributeValueException(call + ": " + e.getMessage());
    }
    StringBuilder text = new StringBuilder(d.toString());
    for (int index : indices) {
      text.append(index < 0 ? "" : "DrmaaIndex = " + index + "\n").append("queue\n");
    }
    return text.toString();
  }

  /** A DRMAA path ({@code [host]:path}, placeholders) as a submit-description value. */
  private static String path(String drmaaPath, String wd, String home) {
    String p = drmaaPath.indexOf(':') >= 0 && !drmaaPath.startsWith("/") ? drmaaPath.substring(drmaaPath.indexOf(':') + 1) : drmaaPath;
    p = SubmitDescription.literal(p.replace(JobTemplate.WORKING_DIRECTORY, wd).replace(JobTemplate.HOME_DIRECTORY, home));
    return p.replace(SubmitDescription.literal(JobTemplate.PARAMETRIC_INDEX), "$(DrmaaIndex)");
  }
}
