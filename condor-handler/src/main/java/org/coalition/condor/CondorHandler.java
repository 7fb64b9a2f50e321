package org.coalition.condor;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.HomeQueueSide;
import org.coalition.handler.PartitionLoad;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.PilotState;
import org.coalition.handler.PilotStatus;
import org.coalition.handler.QueueObservation;
import org.coalition.handler.RequestCost;
import org.coalition.handler.ResourceHandler;
import org.coalition.handler.Tool;
import org.coalition.handler.files.Results;
import org.coalition.job.JobLayout;

/**
 * HTCondor as a site, through its own tools: load from {@code condor_q -json} (idle jobs, and jobs
 * held by a user) and {@code condor_status -json} (cores of partitionable and static slots, and
 * how many run a job: slots whose activity is Busy, Retiring or Suspended; a claimed slot left idle
 * between jobs counts as free); pilots submitted with {@code condor_submit -terse} as the mapped account,
 * held, released and removed with {@code condor_hold}, {@code condor_release}, {@code condor_rm},
 * followed through {@code condor_q} and {@code condor_history}.
 *
 * <p>HTCondor has no partitions: a pilot's partition must be empty. A job's time limit is its
 * {@code AllowedJobDuration}; a pending job without one counts {@link Config#defaultTimeLimit()}.
 */
public final class CondorHandler implements ResourceHandler, HomeQueueSide {
  /** The handler's kind, as in {@link PilotHandle#system()}. */
  public static final String KIND = "condor";
  /** The idle jobs, and the held ones that wait for a release (held by the user, or by Coalition's park). */
  private static final String PENDING = "JobStatus == 1 || (JobStatus == 5 && (HoldReasonCode == 1 || HoldReasonCode == 15))";

  /**
   * What the handler needs: the tools, and the time limit counted for a pending job without one;
   * for a home ({@link CondorHome}), the results folder and the {@code coalition-replay} program.
   */
  public record Config(CondorTools tools, Duration defaultTimeLimit, Optional<Path> results, Path replay) {
    /** The replay program the Debian package installs. */
    public static final Path REPLAY = Path.of("/usr/lib/coalition/coalition-replay");

    public Config {
      Objects.requireNonNull(tools, "tools");
      Objects.requireNonNull(defaultTimeLimit, "defaultTimeLimit");
      Objects.requireNonNull(results, "results");
      Objects.requireNonNull(replay, "replay");
    }

    /** A pool that only lends: its users' jobs are not published. */
    public Config(CondorTools tools, Duration defaultTimeLimit) {
      this(tools, defaultTimeLimit, Optional.empty(), REPLAY);
    }
  }

  private final Config config;
  private final CondorJobs jobs;
  /** Its users' opted-in jobs, when it has a results folder to replay them from. */
  private final Optional<CondorHome> home;
  private final Clock clock;
  private final String description;
  /** The most GPUs one slot of the pool had at the last observation: the most a pilot asks for here. */
  private volatile long gpus;

  private CondorHandler(Config config, String version, Clock clock) {
    this.config = config;
    this.jobs = new CondorJobs(config.tools());
    this.home = config.results().map(r -> new CondorHome(config.tools(), new Results(r), config.replay()));
    this.clock = clock;
    this.description = "HTCondor " + version + " (command-line tools, JSON)";
  }

  /** Asks {@code condor_version} and checks that the collector answers. */
  public static CondorHandler connect(Config config) {
    String version = version(config.tools());
    config.tools().ads("condor_status", List.of("-json", "-attributes", "Name"), "connect to HTCondor's collector");
    return new CondorHandler(config, version, Clock.systemUTC());
  }

  /** The version {@code condor_version} prints ({@code $CondorVersion: 23.9.6 2026-07-12 ... $}). */
  static String version(CondorTools tools) {
    String out = tools.run("condor_version", List.of(), null).requireSuccess("ask HTCondor's version", Category.UNAVAILABLE);
    var m = Pattern.compile("\\$CondorVersion: (\\S+)").matcher(out);
    if (!m.find()) {
      throw new HandlerException(Category.PROTOCOL, "condor_version printed no $CondorVersion: " + out.strip());
    }
    return m.group(1);
  }

  @Override
  public String describe() {
    return description;
  }

  @Override
  public QueueObservation observe() {
    double at = clock.millis() / 1000.0;
    Tool.Result q = config.tools().run("condor_q", List.of("-allusers", "-json", "-attributes", "ClusterId,ProcId,RequestCpus,AllowedJobDuration",
        "-constraint", PENDING), null);
    List<JsonNode> pending = CondorTools.parse(q.requireSuccess("observe HTCondor's idle jobs", Category.UNAVAILABLE), "condor_q -json");
    Tool.Result s = config.tools().run("condor_status", List.of("-json", "-attributes",
        "Name,SlotType,Cpus,TotalSlotCpus,GPUs,TotalSlotGPUs,State,Activity"), null);
    List<JsonNode> slots = CondorTools.parse(s.requireSuccess("observe HTCondor's slots", Category.UNAVAILABLE), "condor_status -json");
    double coreSeconds = CondorLoad.pendingCoreSeconds(pending, config.defaultTimeLimit());
    CondorLoad.Cores cores = CondorLoad.cores(slots);
    gpus = CondorLoad.gpus(slots);
    int calls = 2;
    long bytes = q.stdout().length() + s.stdout().length();
    if (home.isPresent()) {
      bytes += home.get().observe();
      home.get().sweep();
      calls++;
    }
    List<PartitionLoad> partitions = pending.isEmpty() ? List.of() : List.of(new PartitionLoad("", pending.size(), coreSeconds));
    return new QueueObservation(at, pending.size(), coreSeconds, partitions, cores.claimed(), cores.total(), new RequestCost(calls, bytes));
  }

  /**
   * A job of one slot, without GRES or with GPUs by count alone ({@code gpu:N}, no type: HTCondor's
   * {@code request_GPUs}), as many as one slot of the pool had at the last observation.
   */
  @Override
  public boolean canHold(int cores, long memoryMb, JobLayout layout) {
    return layout.oneTaskOfGpusByCount() && layout.gpus() <= gpus;
  }

  @Override
  public PilotHandle submit(PilotSpec spec) {
    if (!spec.layout().oneTaskOfGpusByCount()) {
      throw new HandlerException(Category.REJECTED, "pilot " + spec.name() + ": HTCondor runs a pilot in one slot, with GPUs by count only;"
          + " it cannot ask for " + spec.layout());
    }
    if (!spec.partition().isEmpty()) {
      throw new HandlerException(Category.REJECTED, "pilot " + spec.name() + ": HTCondor has no partitions, but '" + spec.partition()
          + "' was asked for (leave the pilots' partition empty in the site file)");
    }
    if (!spec.command().get(0).startsWith("/")) {
      throw new HandlerException(Category.REJECTED, "pilot " + spec.name() + ": HTCondor starts a pilot's program by its absolute path on the"
          + " execute node, but pilots.command begins with '" + spec.command().get(0) + "' (name it in full, e.g. /usr/bin/java)");
    }
    SubmitDescription d = new SubmitDescription();
    try {
      d.set("universe", "vanilla").set("executable", SubmitDescription.literal(spec.command().get(0))).set("transfer_executable", "false")
          .arguments(spec.command().subList(1, spec.command().size())).environment(spec.environment())
          // IF_NEEDED: a pilot brings nothing and sends nothing but its output, so it runs on any execute node; NO
          // would tie it to the access point's FileSystemDomain, which nodes without a shared file system never match
          .set("initialdir", SubmitDescription.literal(spec.workingDirectory())).set("should_transfer_files", "IF_NEEDED")
          .set("batch_name", spec.name()).set("request_cpus", Integer.toString(spec.cores()))
          .set("allowed_job_duration", Long.toString(spec.walltimeSeconds())).set("max_retries", "0")
          .set("output", SubmitDescription.literal(spec.output()))
          .set("error", SubmitDescription.literal(spec.output())).set("hold", spec.held() ? "true" : "false");
      if (spec.memoryMb() > 0) {
        d.set("request_memory", Long.toString(spec.memoryMb()));
      }
      if (spec.layout().gpus() > 0) {
        d.set("request_GPUs", Integer.toString(spec.layout().gpus()));
      }
    } catch (IllegalArgumentException e) {
      throw new HandlerException(Category.REJECTED, "pilot " + spec.name() + ": " + e.getMessage());
    }
    String what = "submit pilot " + spec.name() + " as " + spec.account();
    Tool.Result r = config.tools().runAs(Optional.of(spec.account()), "condor_submit", List.of("-terse"), d.queue());
    return new PilotHandle(KIND, firstId(r.requireSuccess(what, Category.REJECTED), what));
  }

  /** The first job id of {@code condor_submit -terse}'s {@code 12.0 - 12.2}. */
  static String firstId(String terse, String what) {
    List<String> ids = CondorJobs.submitted(terse);
    if (ids.isEmpty()) {
      throw new HandlerException(Category.PROTOCOL, what + ": condor_submit -terse printed no job ids: " + terse.strip());
    }
    return ids.get(0);
  }

  @Override
  public void hold(PilotHandle pilot) {
    act("condor_hold", pilot, false);
  }

  @Override
  public void release(PilotHandle pilot) {
    act("condor_release", pilot, false);
  }

  @Override
  public void cancel(PilotHandle pilot) {
    act("condor_rm", pilot, true);
  }

  private void act(String tool, PilotHandle pilot, boolean goneIsFine) {
    String what = tool + " " + pilot.nativeId();
    if (!CondorJobs.ID.matcher(pilot.nativeId()).matches()) {
      if (goneIsFine) {
        return; // no such job can exist, so it is gone
      }
      throw new HandlerException(Category.NOT_FOUND, what + ": not an HTCondor job id (CLUSTER.PROC)");
    }
    Tool.Result r = config.tools().run(tool, List.of(pilot.nativeId()), null);
    if (goneIsFine && CondorTools.saysAlreadyRemoved(r)) {
      return; // removed before, its ad not yet out of the queue
    }
    if (CondorTools.saysNotFound(r)) {
      if (goneIsFine) {
        return;
      }
      throw new HandlerException(Category.NOT_FOUND, what + ": HTCondor does not know pilot " + pilot + ": " + (r.stdout() + r.stderr()).strip());
    }
    r.requireSuccess(what, Category.UNAVAILABLE);
  }

  @Override
  public PilotStatus status(PilotHandle pilot) {
    return statuses(List.of(pilot)).get(pilot);
  }

  @Override
  public Map<PilotHandle, PilotStatus> statuses(Collection<PilotHandle> pilots) {
    Map<String, JsonNode> ads = jobs.find(pilots.stream().map(PilotHandle::nativeId).toList());
    Map<PilotHandle, PilotStatus> out = new LinkedHashMap<>();
    for (PilotHandle p : pilots) {
      JsonNode ad = ads.get(p.nativeId());
      out.put(p, ad == null ? PilotStatus.unknown(p, "HTCondor knows no job " + p.nativeId() + " in its queue or history") : status(p, ad));
    }
    return out;
  }

  /** A pilot's state in the SPI's words. */
  static PilotStatus status(PilotHandle pilot, JsonNode ad) {
    int s = CondorJobs.status(ad);
    return switch (s) {
      case CondorJobs.IDLE -> new PilotStatus(pilot, PilotState.PENDING, OptionalInt.empty(), "Idle");
      case CondorJobs.HELD -> new PilotStatus(pilot, PilotState.HELD, OptionalInt.empty(), "Held: " + ad.path("HoldReason").asText(""));
      case CondorJobs.RUNNING, CondorJobs.TRANSFERRING_OUTPUT, CondorJobs.SUSPENDED ->
          new PilotStatus(pilot, PilotState.RUNNING, OptionalInt.empty(), s == CondorJobs.SUSPENDED ? "Suspended" : "Running");
      case CondorJobs.REMOVED -> new PilotStatus(pilot, PilotState.CANCELLED, OptionalInt.empty(), "Removed: " + ad.path("RemoveReason").asText(""));
      default -> {
        if (ad.path("ExitBySignal").asBoolean(false)) {
          yield new PilotStatus(pilot, PilotState.FAILED, OptionalInt.empty(), "Completed: killed by signal " + ad.path("ExitSignal").asInt());
        }
        int code = ad.path("ExitCode").asInt(-1);
        yield new PilotStatus(pilot, code == 0 ? PilotState.COMPLETED : PilotState.FAILED, code < 0 ? OptionalInt.empty() : OptionalInt.of(code),
            "Completed: exit " + code);
      }
    };
  }

  @Override
  public Optional<CondorHome> homeSide() {
    return home;
  }

  @Override
  public String noHome() {
    return "this HTCondor pool publishes no jobs of its users: its site file names no results folder (results:)";
  }

  @Override
  public void close() {
    // nothing held open: every call is a tool run
  }
}
