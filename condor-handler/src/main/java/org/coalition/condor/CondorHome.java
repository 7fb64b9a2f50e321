package org.coalition.condor;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.HomeJob;
import org.coalition.handler.HomeQueue;
import org.coalition.handler.RemoteRun;
import org.coalition.handler.Tool;
import org.coalition.handler.files.AsAccount;
import org.coalition.handler.files.Results;

/**
 * HTCondor as a home (issue #50, docs/decisions/0018, design A): its users' opted-in jobs
 * ({@code +CoalitionFederate = true}, by hand or by the pool's schedd transform) are listed,
 * parked with a hold of Coalition's own, and brought home by a replay run of the user's own job.
 *
 * <ul>
 *   <li><b>Park</b>: {@code condor_hold -subcode 7077} of the job only while it is idle (one
 *       constraint, so a job that has just started is never held, which would evict it), then its
 *       {@code CoalitionHoldToken} set to the {@code EnteredCurrentStatus} of that hold. A hold is
 *       Coalition's while code, subcode and token all match: a hold released and made again (by
 *       its user or an administrator) has another {@code EnteredCurrentStatus}, and is never
 *       released by the daemon. A job held by anyone else is not parked ({@code REJECTED}).
 *   <li><b>Replay</b>: the run's result goes to the results folder ({@link Results}); one {@code
 *       condor_qedit} makes the held job run {@code coalition-replay} on it (one core, the
 *       program on the access point, the job's own {@code Cmd} kept in {@code
 *       CoalitionOriginalCmd}), and the job is released. HTCondor then runs it as it runs any
 *       job: its shadow records the exit code or signal, its output and error go to the job's own
 *       files, and its history keeps it ({@code condor_history}).
 * </ul>
 *
 * <p>What travels is the job's executable when it is a script (its first line {@code #!}) and it
 * has no arguments; a job that transfers input files, asks for GPUs, or runs a program that is no
 * script stays home, and its user is told why (docs/jobs.md).
 */
final class CondorHome implements HomeQueue {
  /** The attribute that opts a job in. */
  static final String FEDERATE = "CoalitionFederate";
  /** The subcode of Coalition's holds (HTCondor reserves none: the token tells them apart). */
  static final int HOLD_SUBCODE = 7077;
  static final String HOLD_TOKEN = "CoalitionHoldToken";
  static final String ORIGINAL_CMD = "CoalitionOriginalCmd";
  static final String WHERE = "CoalitionWhere";
  /** The largest script sent to the federation (the federation's own bound on a job's payload). */
  private static final int MAX_SCRIPT = 1 << 20;
  private static final String ATTRIBUTES = "ClusterId,ProcId,Owner,JobStatus,HoldReasonCode,HoldReasonSubCode,EnteredCurrentStatus,"
      + HOLD_TOKEN + ",RequestCpus,RequestMemory,RequestGPUs,AllowedJobDuration,Iwd,Cmd,Args,Arguments,TransferInput," + ORIGINAL_CMD;
  private static final String OURS = "JobStatus == 5 && HoldReasonCode == 1 && HoldReasonSubCode == " + HOLD_SUBCODE + " && " + HOLD_TOKEN
      + " =?= EnteredCurrentStatus";

  private final CondorTools tools;
  private final Results results;
  private final Path replay;
  private volatile List<HomeJob> federable = List.of();
  /** The opted-in jobs in the queue at the last observation, in any state: a replay running is one. */
  private volatile Set<String> inQueue = Set.of();

  /**
   * @param results the folder run results are left in for their replay (readable by the access point's jobs)
   * @param replay the {@code coalition-replay} program on the access point
   */
  CondorHome(CondorTools tools, Results results, Path replay) {
    this.tools = tools;
    this.results = results;
    this.replay = replay;
    if (!replay.isAbsolute() || !results.root().isAbsolute() || unquotable(replay.toString()) || unquotable(results.root().toString())) {
      throw new HandlerException(Category.REJECTED, "the replay program (" + replay + ") and the results folder (" + results.root()
          + ") must be absolute paths without quotes, backslashes or spaces");
    }
  }

  private static boolean unquotable(String s) {
    return s.chars().anyMatch(c -> c == '"' || c == '\\' || c == '\'' || Character.isWhitespace(c));
  }

  /**
   * Reads the opted-in jobs that wait or are held; {@link #federable} answers from it until the
   * next observation. Returns how many bytes the schedd answered.
   */
  long observe() {
    String what = "observe HTCondor's opted-in jobs";
    String out = tools.run("condor_q", List.of("-allusers", "-json", "-attributes", ATTRIBUTES, "-constraint", FEDERATE + " =?= true"), null)
        .requireSuccess(what, Category.UNAVAILABLE);
    List<HomeJob> jobs = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (JsonNode ad : CondorTools.parse(out, "condor_q -json")) {
      ids.add(CondorJobs.id(ad));
      int status = CondorJobs.status(ad);
      if (status == CondorJobs.IDLE || status == CondorJobs.HELD) {
        jobs.add(homeJob(ad));
      }
    }
    federable = List.copyOf(jobs);
    inQueue = Set.copyOf(ids);
    return out.length();
  }

  @Override
  public List<HomeJob> federable() {
    return federable;
  }

  /** An opted-in job as the daemon sees it: held when a user's or Coalition's hold keeps it; ready when idle and no replay. */
  static HomeJob homeJob(JsonNode ad) {
    int status = CondorJobs.status(ad);
    boolean replaying = ad.has(ORIGINAL_CMD);
    return HomeJob.builder(CondorJobs.id(ad), ad.path("Owner").asText("")).cpus(Math.max(1, (int) number(ad, "RequestCpus", 1)))
        .memoryMb(number(ad, "RequestMemory", 0)).timeLimitSeconds(number(ad, "AllowedJobDuration", -1))
        .held(status == CondorJobs.HELD && ad.path("HoldReasonCode").asInt() == 1).ready(status == CondorJobs.IDLE && !replaying)
        .workDir(ad.path("Iwd").asText("")).staysHome(staysHome(ad)).build();
  }

  /** A number attribute, or {@code otherwise} when it is missing or an expression the schedd has not evaluated. */
  private static long number(JsonNode ad, String attribute, long otherwise) {
    JsonNode n = ad.path(attribute);
    return n.canConvertToLong() && n.asLong() >= 0 && n.asLong() < Integer.MAX_VALUE ? n.asLong() : otherwise;
  }

  /** Why the job cannot run elsewhere as it asks, or empty. */
  static String staysHome(JsonNode ad) {
    if (!ad.path("TransferInput").asText("").isBlank()) {
      return "it transfers input files (transfer_input_files), which an HTCondor job cannot take to another site yet";
    }
    if (number(ad, "RequestGPUs", 0) > 0) {
      return "it asks for GPUs, which an HTCondor job cannot take to another site yet";
    }
    if (!ad.path("Arguments").asText("").isBlank() || !ad.path("Args").asText("").isBlank()) {
      return "it gives its program arguments, which an HTCondor job cannot take to another site yet (put them in a script)";
    }
    return "";
  }

  /** The job's script, read as its owner (never as root: a link the user planted leads nowhere the user could not go). */
  @Override
  public String payload(String jobId) {
    JsonNode ad = optedIn(jobId, "read the script of");
    Path iwd = Path.of(ad.path("Iwd").asText("/"));
    Path cmd = iwd.resolve(ad.path("Cmd").asText(""));
    String owner = ad.path("Owner").asText("");
    Tool.Result r;
    try {
      r = new Tool(AsAccount.command(owner, List.of("head", "-c", Integer.toString(MAX_SCRIPT + 1), "--", cmd.toString())), Map.of(), tools.timeout())
          .run(List.of(), null);
    } catch (IOException | IllegalArgumentException e) {
      throw new HandlerException(Category.REJECTED, "cannot read the program of job " + jobId + " as " + owner + ": " + e.getMessage(), e);
    }
    String script = r.requireSuccess("read the program of job " + jobId + " (" + cmd + ") as " + owner, Category.REJECTED);
    if (!script.startsWith("#!")) {
      throw new HandlerException(Category.REJECTED, "job " + jobId + " runs " + cmd + ", which is no script (no #! line): it stays home");
    }
    if (script.getBytes(StandardCharsets.UTF_8).length > MAX_SCRIPT) {
      throw new HandlerException(Category.REJECTED, "job " + jobId + "'s script " + cmd + " is larger than " + MAX_SCRIPT + " bytes: it stays home");
    }
    return script;
  }

  /** Holds the job with Coalition's hold, only while it is idle. */
  @Override
  public void park(String jobId) {
    String job = CondorJobs.constraint(List.of(jobId));
    Tool.Result held = tools.run("condor_hold", List.of("-constraint", "(" + job + ") && JobStatus == 1", "-reason",
        "Coalition: may run at another site of the federation; it stays in this queue", "-subcode", Integer.toString(HOLD_SUBCODE)), null);
    if (held.exitCode() != 0 || CondorTools.saysNotFound(held)) {
      JsonNode ad = read(jobId, "park");
      throw new HandlerException(Category.REJECTED, "job " + jobId + " is not parked: it is not idle (JobStatus " + ad.path("JobStatus").asText()
          + (ad.has("HoldReasonCode") ? ", held with code " + ad.path("HoldReasonCode").asText() : "") + ")");
    }
    JsonNode ad = read(jobId, "park");
    edit(jobId, List.of(HOLD_TOKEN, ad.path("EnteredCurrentStatus").asText("0")), "mark the hold of job " + jobId + " as Coalition's");
  }

  /** Releases Coalition's hold of the job (its publication was withdrawn): it runs here after all. */
  @Override
  public void unpark(String jobId) {
    releaseOurs(jobId, "unpark");
  }

  /** Makes the parked job replay {@code run} and releases it. */
  @Override
  public void replay(String jobId, RemoteRun run) {
    JsonNode ad = read(jobId, "replay a run of");
    if (!ours(ad)) {
      throw new HandlerException(Category.REJECTED, "cannot replay a run of job " + jobId + ": Coalition did not park it (or its hold was made again)");
    }
    // a timeout or a memory kill would replay by waiting for the job's limits: it ends by the signal instead
    results.write(jobId, ad.path("Owner").asText(""), run.timedOut() || run.outOfMemory() ? run.plain() : run);
    List<String> edits = new ArrayList<>(List.of("Cmd", quoted(replay.toString()), "Arguments", quoted(results.root().resolve(jobId).toString()),
        "Args", "\"\"", "TransferExecutable", "false", "RequestCpus", "1"));
    if (!ad.has(ORIGINAL_CMD)) {
      edits.addAll(List.of(ORIGINAL_CMD, quoted(ad.path("Cmd").asText(""))));
    }
    edit(jobId, edits, "make job " + jobId + " replay its run");
    releaseOurs(jobId, "replay a run of");
  }

  /** Tells the user where the job is, in an attribute of its ad ({@code condor_q -l}, then {@code condor_history -l}). */
  @Override
  public void note(String jobId, String text) {
    edit(jobId, List.of(WHERE, quoted(text)), "note where job " + jobId + " is");
  }

  @Override
  public Optional<String> owner(String jobId) {
    if (!CondorJobs.ID.matcher(jobId).matches()) {
      return Optional.empty();
    }
    JsonNode ad = new CondorJobs(tools).find(List.of(jobId)).get(jobId);
    return ad == null ? Optional.empty() : Optional.of(ad.path("Owner").asText("")).filter(o -> !o.isEmpty());
  }

  /** Deletes the results of jobs that left the queue (a replay reads its result while it runs). */
  void sweep() {
    Set<String> queued = inQueue;
    results.sweep(id -> !queued.contains(id));
  }

  private void releaseOurs(String jobId, String what) {
    Tool.Result r = tools.run("condor_release", List.of("-constraint", "(" + CondorJobs.constraint(List.of(jobId)) + ") && " + OURS), null);
    if (r.exitCode() != 0 || CondorTools.saysNotFound(r)) {
      JsonNode ad = read(jobId, what);
      throw new HandlerException(Category.REJECTED, "cannot " + what + " job " + jobId + ": it is not held by Coalition (JobStatus "
          + ad.path("JobStatus").asText() + ", hold code " + ad.path("HoldReasonCode").asText("none") + ")");
    }
  }

  private static boolean ours(JsonNode ad) {
    return ad.path("JobStatus").asInt() == CondorJobs.HELD && ad.path("HoldReasonCode").asInt() == 1
        && ad.path("HoldReasonSubCode").asInt() == HOLD_SUBCODE && ad.has(HOLD_TOKEN)
        && ad.path(HOLD_TOKEN).asText().equals(ad.path("EnteredCurrentStatus").asText());
  }

  private JsonNode optedIn(String jobId, String what) {
    JsonNode ad = read(jobId, what);
    if (!ad.path(FEDERATE).asBoolean(false)) {
      throw new HandlerException(Category.REJECTED, "cannot " + what + " job " + jobId + ": it was not opted in");
    }
    return ad;
  }

  /** The job's ad in the queue now. */
  private JsonNode read(String jobId, String what) {
    if (!CondorJobs.ID.matcher(jobId).matches()) {
      throw new HandlerException(Category.NOT_FOUND, "cannot " + what + " job " + jobId + ": not an HTCondor job id (CLUSTER.PROC)");
    }
    List<JsonNode> ads = tools.ads("condor_q", List.of("-allusers", "-json", "-attributes", ATTRIBUTES + "," + FEDERATE, "-constraint",
        CondorJobs.constraint(List.of(jobId))), "read job " + jobId);
    if (ads.isEmpty()) {
      throw new HandlerException(Category.NOT_FOUND, "cannot " + what + " job " + jobId + ": it is no longer in HTCondor's queue");
    }
    return ads.get(0);
  }

  /** One {@code condor_qedit} of several attributes (one transaction at the schedd). */
  private void edit(String jobId, List<String> attributesAndValues, String what) {
    List<String> args = new ArrayList<>(List.of(jobId));
    args.addAll(attributesAndValues);
    tools.run("condor_qedit", args, null).requireSuccess(what, Category.UNAVAILABLE);
  }

  /** A ClassAd string literal. */
  static String quoted(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
