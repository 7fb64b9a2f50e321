package org.coalition.gridengine;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.coalition.drmaa.DrmaaException;
import org.coalition.drmaa.JobInfo;
import org.coalition.drmaa.JobState;
import org.coalition.drmaa.JobTemplate;
import org.coalition.drmaa.Session;
import org.coalition.drmaa.jna.NativeSession;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.PilotState;
import org.coalition.handler.PilotStatus;
import org.coalition.handler.QueueObservation;
import org.coalition.handler.RequestCost;
import org.coalition.handler.ResourceHandler;
import org.coalition.handler.Tool;

/**
 * Grid Engine as a site: pilots are DRMAA jobs of one session over the site's {@code libdrmaa}
 * (through {@link NativeSession}); the load is read from {@code qstat -xml}, two calls per
 * observation. A pilot of several cores asks for that many slots of one host through a parallel
 * environment ({@code -pe smp N} by default).
 *
 * <p>DRMAA runs jobs as the user of the process that submits them. A daemon running as root
 * therefore starts each pilot as {@code runuser -u ACCOUNT -- COMMAND}, so nothing of the foreign
 * job runs as root; a daemon running as an ordinary user runs pilots only for that account.
 */
public final class GridEngineHandler implements ResourceHandler {
  /** The handler's kind, as in {@link PilotHandle#system()}. */
  public static final String KIND = "gridengine";

  /**
   * What the handler needs.
   *
   * @param library the site's {@code libdrmaa.so}; empty for {@code $DRMAA_LIBRARY_PATH}
   * @param qstat the {@code qstat} tool (and any wrapper before it), with {@code SGE_ROOT} in its environment
   * @param queues cluster queues whose slots the site lends; empty for all
   * @param parallelEnvironment the parallel environment of pilots of more than one core
   * @param defaultTimeLimit the time limit counted for a pending job without {@code h_rt}
   * @param runuser the command that starts a pilot as its account when the daemon is root
   * @param memoryComplex the complex a pilot asks its memory by ({@code -l mem_free=356M}), compared
   *     with its whole memory; empty to ask none
   */
  public record Config(Optional<Path> library, Tool qstat, List<String> queues, String parallelEnvironment, Duration defaultTimeLimit,
      String runuser, String memoryComplex) {
    public Config {
      Objects.requireNonNull(library, "library");
      Objects.requireNonNull(qstat, "qstat");
      queues = List.copyOf(queues);
      Objects.requireNonNull(parallelEnvironment, "parallelEnvironment");
      Objects.requireNonNull(defaultTimeLimit, "defaultTimeLimit");
      Objects.requireNonNull(runuser, "runuser");
      Objects.requireNonNull(memoryComplex, "memoryComplex");
    }

    /** Defaults: {@code qstat} on the PATH (30 s), all queues, {@code -pe smp}, 1 h for jobs without {@code h_rt}, memory by {@code mem_free}. */
    public static Config of(Optional<Path> library) {
      return new Config(library, Tool.of("qstat", Duration.ofSeconds(30)), List.of(), "smp", Duration.ofHours(1), "/usr/sbin/runuser",
          "mem_free");
    }

    public Config withQstat(Tool tool) {
      return new Config(library, tool, queues, parallelEnvironment, defaultTimeLimit, runuser, memoryComplex);
    }
  }

  private final Config config;
  private final Session session;
  private final String user;
  private final Clock clock;
  private final String description;
  /** Pilots this handler cancelled: DRMAA reports them aborted, as it does jobs that never started. */
  private final Set<String> cancelled = ConcurrentHashMap.newKeySet();
  /** Most ended pilots remembered: a pilot's result is reaped once from the session and kept for later asks. */
  static final int REMEMBERED = 10_000;
  /** Ended pilots, the newest {@link #REMEMBERED} of them. */
  private final Map<String, PilotStatus> ended = Collections.synchronizedMap(new LinkedHashMap<>() {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, PilotStatus> eldest) {
      return size() > REMEMBERED;
    }
  });

  GridEngineHandler(Config config, Session session, String user, Clock clock) {
    this.config = config;
    this.session = session;
    this.user = user;
    this.clock = clock;
    this.description = "Grid Engine " + session.getDrmSystem() + " (DRMAA " + session.getVersion() + ", " + session.getDrmaaImplementation() + ")";
  }

  /** Checks that qstat answers, then loads the library and opens the DRMAA session. */
  public static GridEngineHandler connect(Config config) {
    config.qstat().run(List.of("-g", "c", "-xml"), null).requireSuccess("connect to Grid Engine", Category.UNAVAILABLE);
    Session session;
    try {
      session = NativeSession.load(config.library());
      session.init("");
    } catch (DrmaaException.AlreadyActiveSessionException e) {
      throw new HandlerException(Category.INTERNAL, "this process already has a DRMAA session, and DRMAA 1.0 allows one per process:"
          + " list one Grid Engine handler per daemon", e);
    } catch (DrmaaException e) {
      throw new HandlerException(Category.UNAVAILABLE, "cannot open a DRMAA session with Grid Engine: " + e.getMessage()
          + " (are SGE_ROOT and SGE_CELL set, and is sge_qmaster running?)", e);
    } catch (RuntimeException e) {
      throw new HandlerException(Category.UNAVAILABLE, e.getMessage(), e);
    }
    return new GridEngineHandler(config, session, System.getProperty("user.name"), Clock.systemUTC());
  }

  @Override
  public String describe() {
    return description;
  }

  @Override
  public QueueObservation observe() {
    double at = clock.millis() / 1000.0;
    Tool.Result pending = config.qstat().run(List.of("-xml", "-u", "*", "-s", "p", "-r"), null);
    String pendingXml = pending.requireSuccess("observe Grid Engine's pending jobs", Category.UNAVAILABLE);
    Tool.Result queues = config.qstat().run(List.of("-g", "c", "-xml"), null);
    String queuesXml = queues.requireSuccess("observe Grid Engine's queues", Category.UNAVAILABLE);
    String defaultQueue = config.queues().isEmpty() ? "" : config.queues().get(0);
    QstatXml.Pending p = QstatXml.pending(pendingXml, config.defaultTimeLimit(), defaultQueue);
    QstatXml.Slots s = QstatXml.slots(queuesXml, config.queues());
    return new QueueObservation(at, p.jobs(), p.coreSeconds(), p.queues(), s.used(), s.usable(),
        new RequestCost(2, pendingXml.length() + queuesXml.length()));
  }

  @Override
  public PilotHandle submit(PilotSpec spec) {
    List<String> command = new ArrayList<>();
    if (user.equals("root")) {
      command.addAll(List.of(config.runuser(), "-u", spec.account(), "--"));
    } else if (!user.equals(spec.account())) {
      throw new HandlerException(Category.REJECTED, "pilot " + spec.name() + ": the daemon runs as '" + user + "', and Grid Engine runs a"
          + " DRMAA job as its submitter, so pilots can run only as '" + user + "', not '" + spec.account() + "' (run the daemon as root"
          + " to start pilots as their mapped account with runuser)");
    }
    command.addAll(spec.command());
    StringBuilder nativeSpec = new StringBuilder("-r n -l h_rt=" + spec.walltimeSeconds());
    if (spec.cores() > 1) {
      nativeSpec.append(" -pe ").append(config.parallelEnvironment()).append(' ').append(spec.cores());
    }
    if (!spec.partition().isEmpty()) {
      nativeSpec.append(" -q ").append(spec.partition());
    }
    if (spec.memoryMb() > 0 && !config.memoryComplex().isEmpty()) {
      // -w w: DRMAA's verification ignores load values, so a load-value complex (mem_free) looks unknown to it and every queue
      // unsuitable; the scheduler compares it with each host's load as usual
      nativeSpec.append(" -w w -l ").append(config.memoryComplex()).append('=').append(spec.memoryMb()).append('M');
    }
    JobTemplate t = new JobTemplate().setRemoteCommand(command.get(0)).setArgs(command.subList(1, command.size()))
        .setJobName(spec.name()).setWorkingDirectory(spec.workingDirectory()).setJobEnvironment(spec.environment())
        .setOutputPath(":" + spec.output()).setJoinFiles(true).setNativeSpecification(nativeSpec.toString())
        .setJobSubmissionState(spec.held() ? JobTemplate.SubmissionState.HOLD : JobTemplate.SubmissionState.ACTIVE);
    try {
      return new PilotHandle(KIND, session.runJob(t));
    } catch (DrmaaException e) {
      throw failure("submit pilot " + spec.name() + " as " + spec.account(), e);
    }
  }

  @Override
  public void hold(PilotHandle pilot) {
    control(pilot, Session.Action.HOLD);
  }

  @Override
  public void release(PilotHandle pilot) {
    control(pilot, Session.Action.RELEASE);
  }

  @Override
  public void cancel(PilotHandle pilot) {
    cancelled.add(pilot.nativeId());
    try {
      session.control(pilot.nativeId(), Session.Action.TERMINATE);
    } catch (DrmaaException.InvalidJobException e) {
      // already gone
    } catch (DrmaaException e) {
      throw failure("cancel pilot " + pilot, e);
    }
  }

  private void control(PilotHandle pilot, Session.Action action) {
    try {
      session.control(pilot.nativeId(), action);
    } catch (DrmaaException e) {
      throw failure(action.name().toLowerCase(Locale.ROOT) + " pilot " + pilot, e);
    }
  }

  @Override
  public PilotStatus status(PilotHandle pilot) {
    PilotStatus done = ended.get(pilot.nativeId());
    if (done != null) {
      return done;
    }
    JobState state;
    try {
      state = session.getJobProgramStatus(pilot.nativeId());
    } catch (DrmaaException.InvalidJobException e) {
      return PilotStatus.unknown(pilot, "Grid Engine does not know job " + pilot.nativeId() + " (" + e.getMessage() + ")");
    } catch (DrmaaException e) {
      throw failure("status of pilot " + pilot, e);
    }
    return switch (state) {
      case QUEUED_ACTIVE -> new PilotStatus(pilot, PilotState.PENDING, OptionalInt.empty(), state.name());
      case USER_ON_HOLD, SYSTEM_ON_HOLD, USER_SYSTEM_ON_HOLD -> new PilotStatus(pilot, PilotState.HELD, OptionalInt.empty(), state.name());
      case RUNNING, USER_SUSPENDED, SYSTEM_SUSPENDED, USER_SYSTEM_SUSPENDED ->
          new PilotStatus(pilot, PilotState.RUNNING, OptionalInt.empty(), state.name());
      case DONE, FAILED -> reap(pilot);
      case UNDETERMINED -> PilotStatus.unknown(pilot, "DRMAA answered UNDETERMINED");
    };
  }

  private PilotStatus reap(PilotHandle pilot) {
    JobInfo info;
    try {
      info = session.waitFor(pilot.nativeId(), Session.NO_WAIT);
    } catch (DrmaaException.InvalidJobException e) {
      PilotStatus other = ended.get(pilot.nativeId()); // another thread reaped it
      return other != null ? other : PilotStatus.unknown(pilot, "ended, but its result is gone: " + e.getMessage());
    } catch (DrmaaException e) {
      throw failure("result of pilot " + pilot, e);
    }
    PilotStatus status = ofResult(pilot, info, cancelled.contains(pilot.nativeId()));
    ended.put(pilot.nativeId(), status);
    return status;
  }

  /** A pilot's end in the SPI's words: exit 0 completed, cancelled if this handler cancelled it, failed otherwise. */
  static PilotStatus ofResult(PilotHandle pilot, JobInfo info, boolean cancelledHere) {
    if (info.exited()) {
      return new PilotStatus(pilot, info.exitStatus() == 0 ? PilotState.COMPLETED : PilotState.FAILED, OptionalInt.of(info.exitStatus()),
          "exited " + info.exitStatus());
    }
    if (cancelledHere) {
      return new PilotStatus(pilot, PilotState.CANCELLED, OptionalInt.empty(), "terminated by the daemon");
    }
    String why = info.signaled() ? "killed by " + info.signal() : "aborted before it ran (Grid Engine could not start it)";
    return new PilotStatus(pilot, PilotState.FAILED, OptionalInt.empty(), why);
  }

  @Override
  public Map<PilotHandle, PilotStatus> statuses(Collection<PilotHandle> pilots) {
    Map<PilotHandle, PilotStatus> out = new LinkedHashMap<>();
    for (PilotHandle p : pilots) {
      out.put(p, status(p));
    }
    return out;
  }

  private static HandlerException failure(String what, DrmaaException e) {
    Category category = Category.INTERNAL;
    if (e instanceof DrmaaException.InvalidJobException) {
      category = Category.NOT_FOUND;
    } else if (e instanceof DrmaaException.DrmCommunicationException || e instanceof DrmaaException.TryLaterException) {
      category = Category.UNAVAILABLE;
    } else if (e instanceof DrmaaException.AuthorizationException) {
      category = Category.AUTHENTICATION;
    } else if (e instanceof DrmaaException.DeniedByDrmException || e instanceof DrmaaException.InvalidArgumentException
        || e instanceof DrmaaException.InvalidAttributeValueException || e instanceof DrmaaException.InvalidAttributeFormatException) {
      category = Category.REJECTED;
    }
    return new HandlerException(category, what + ": " + e.getMessage(), e);
  }

  @Override
  public void close() {
    try {
      session.exit();
    } catch (DrmaaException e) {
      // closing; jobs keep running in Grid Engine
    }
  }
}
