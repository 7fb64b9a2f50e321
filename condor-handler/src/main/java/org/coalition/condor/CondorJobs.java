package org.coalition.condor;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.coalition.drmaa.JobEnd;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;

/**
 * Job ads by id ({@code CLUSTER.PROC}): first from the schedd's queue ({@code condor_q -json}),
 * then, for jobs that left it, from its history ({@code condor_history -json}). Two calls at most
 * for any number of jobs.
 */
final class CondorJobs {
  static final Pattern ID = Pattern.compile("(\\d{1,10})\\.(\\d{1,9})");
  /** What {@code condor_submit -terse} prints: the first and the last job id of one cluster. */
  private static final Pattern TERSE = Pattern.compile("^\\s*(\\d{1,10})\\.(\\d{1,9}) - (\\d{1,10})\\.(\\d{1,9})\\s*$", Pattern.MULTILINE);
  /** HTCondor's JobStatus values. */
  static final int IDLE = 1;
  static final int RUNNING = 2;
  static final int REMOVED = 3;
  static final int COMPLETED = 4;
  static final int HELD = 5;
  static final int TRANSFERRING_OUTPUT = 6;
  static final int SUSPENDED = 7;
  /** HoldReasonCode of a hold asked for by a user ({@code condor_hold}) or at submission ({@code hold = true}). */
  static final Set<Integer> USER_HOLDS = Set.of(1, 15);
  /** The job ad's usage attributes by the names Grid Engine's libdrmaa gives the same figures, so that both back ends speak alike. */
  private static final Map<String, String> USAGE = Map.of("RemoteWallClockTime", "ru_wallclock", "RemoteUserCpu", "ru_utime", "RemoteSysCpu",
      "ru_stime", "QDate", "submission_time", "JobStartDate", "start_time", "CompletionDate", "end_time");
  static final String ATTRIBUTES = "ClusterId,ProcId,JobStatus,ExitCode,ExitBySignal,ExitSignal,HoldReason,HoldReasonCode,RemoveReason,"
      + "RequestCpus,AllowedJobDuration,RemoteWallClockTime,RemoteUserCpu,RemoteSysCpu,QDate,JobStartDate,CompletionDate,Owner";

  private final CondorTools tools;

  CondorJobs(CondorTools tools) {
    this.tools = tools;
  }

  /** The ads of {@code ids} that HTCondor knows; ids that are not {@code CLUSTER.PROC} are left out. */
  Map<String, JsonNode> find(Collection<String> ids) {
    Set<String> wanted = new LinkedHashSet<>();
    for (String id : ids) {
      if (ID.matcher(id).matches()) {
        wanted.add(id);
      }
    }
    Map<String, JsonNode> found = new LinkedHashMap<>();
    if (wanted.isEmpty()) {
      return found;
    }
    collect(tools.ads("condor_q", List.of("-allusers", "-json", "-attributes", ATTRIBUTES, "-constraint", constraint(wanted)),
        "read jobs " + wanted + " from the queue"), found);
    List<String> gone = new ArrayList<>(wanted);
    gone.removeAll(found.keySet());
    if (!gone.isEmpty()) {
      collect(tools.ads("condor_history", List.of("-json", "-attributes", ATTRIBUTES, "-constraint", constraint(gone)),
          "read jobs " + gone + " from the history"), found);
    }
    return found;
  }

  /** The job ids {@code condor_submit -terse} printed ({@code 12.0 - 12.2}: 12.0, 12.1, 12.2); empty when it printed none. */
  static List<String> submitted(String terse) {
    var m = TERSE.matcher(terse);
    List<String> ids = new ArrayList<>();
    if (m.find() && m.group(1).equals(m.group(3))) {
      for (int proc = Integer.parseInt(m.group(2)); proc <= Integer.parseInt(m.group(4)); proc++) {
        ids.add(m.group(1) + "." + proc);
      }
    }
    return ids;
  }

  /** Ids of the form {@code CLUSTER.PROC} as one ClassAd constraint. */
  static String constraint(Collection<String> ids) {
    List<String> terms = new ArrayList<>();
    for (String id : ids) {
      var m = ID.matcher(id);
      if (!m.matches()) {
        throw new IllegalArgumentException("'" + id + "' is not an HTCondor job id (CLUSTER.PROC)");
      }
      terms.add("(ClusterId == " + m.group(1) + " && ProcId == " + m.group(2) + ")");
    }
    return String.join(" || ", terms);
  }

  static String id(JsonNode ad) {
    if (!ad.path("ClusterId").canConvertToInt() || !ad.path("ProcId").canConvertToInt()) {
      throw new HandlerException(Category.PROTOCOL, "a job ad lacks ClusterId or ProcId: " + ad);
    }
    return ad.path("ClusterId").asInt() + "." + ad.path("ProcId").asInt();
  }

  static int status(JsonNode ad) {
    JsonNode s = ad.path("JobStatus");
    if (!s.canConvertToInt() || s.asInt() < 1 || s.asInt() > 7) {
      throw new HandlerException(Category.PROTOCOL, "job " + id(ad) + " has a JobStatus HTCondor does not define: " + s);
    }
    return s.asInt();
  }

  private static void collect(List<JsonNode> ads, Map<String, JsonNode> into) {
    for (JsonNode ad : ads) {
      into.putIfAbsent(id(ad), ad);
    }
  }

  /** Whether a job ad says the job is over: completed or removed. */
  static boolean finished(JsonNode ad) {
    int s = status(ad);
    return s == COMPLETED || s == REMOVED;
  }

  /** How a finished job ended, in DRMAA's words: exited, signaled, or aborted (removed). */
  static JobEnd info(String id, JsonNode ad) {
    Map<String, String> usage = new HashMap<>();
    USAGE.forEach((attribute, name) -> {
      if (ad.has(attribute)) {
        usage.put(name, ad.get(attribute).asText());
      }
    });
    if (ad.has("RemoteUserCpu") && ad.has("RemoteSysCpu")) {
      usage.put("cpu", Double.toString(ad.get("RemoteUserCpu").asDouble() + ad.get("RemoteSysCpu").asDouble()));
    }
    if (status(ad) == REMOVED) {
      return new JobEnd(id, false, 0, false, "", false, true, usage);
    }
    if (ad.path("ExitBySignal").asBoolean(false)) {
      return new JobEnd(id, false, 0, true, signalName(ad.path("ExitSignal").asInt()), false, false, usage);
    }
    return new JobEnd(id, true, ad.path("ExitCode").asInt(), false, "", false, false, usage);
  }

  private static String signalName(int n) {
    String[] names = {"", "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV",
        "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM"};
    return n > 0 && n < names.length ? names[n] : "signal " + n;
  }
}
