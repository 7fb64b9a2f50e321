package org.coalition.gridengine;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.coalition.drmaa.jna.NativeSession;
import org.coalition.handler.Escrow;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.HomeQueueSide;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.PilotState;
import org.coalition.handler.PilotStatus;
import org.coalition.handler.QueueObservation;
import org.coalition.handler.RequestCost;
import org.coalition.handler.ResourceHandler;
import org.coalition.handler.Tool;
import org.coalition.handler.files.Results;
import org.ggf.drmaa.AlreadyActiveSessionException;
import org.ggf.drmaa.AuthorizationException;
import org.ggf.drmaa.DeniedByDrmException;
import org.ggf.drmaa.DrmCommunicationException;
import org.ggf.drmaa.DrmaaException;
import org.ggf.drmaa.InternalException;
import org.ggf.drmaa.InvalidAttributeValueException;
import org.ggf.drmaa.InvalidJobException;
import org.ggf.drmaa.JobInfo;
import org.ggf.drmaa.JobTemplate;
import org.ggf.drmaa.Session;
import org.ggf.drmaa.TryLaterException;

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
public final class GridEngineHandler implements ResourceHandler, HomeQueueSide {
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
   * @param results the folder runs of the cluster's users' jobs are left in for the queues' starter
   *     method to replay; empty when the cluster publishes no jobs of its users (it only lends)
   * @param spool qmaster's spool folder, where file spooling keeps the users' job scripts ({@code job_scripts/N})
   */
  public record Config(Optional<Path> library, Tool qstat, List<String> queues, String parallelEnvironment, Duration defaultTimeLimit,
      String runuser, String memoryComplex, Optional<Path> results, Path spool) {
    public Config {
      Objects.requireNonNull(library, "library");
      Objects.requireNonNull(qstat, "qstat");
      queues = List.copyOf(queues);
      Objects.requireNonNull(parallelEnvironment, "parallelEnvironment");
      Objects.requireNonNull(defaultTimeLimit, "defaultTimeLimit");
      Objects.requireNonNull(runuser, "runuser");
      Objects.requireNonNull(memoryComplex, "memoryComplex");
      Objects.requireNonNull(results, "results");
      Objects.requireNonNull(spool, "spool");
    }

    /**
     * Defaults: {@code qstat} on the PATH (30 s), all queues, {@code -pe smp}, 1 h for jobs without
     * {@code h_rt}, memory by {@code mem_free}, no home (Debian's qmaster spool named for when one is set).
     */
    public static Config of(Optional<Path> library) {
      return new Config(library, Tool.of("qstat", Duration.ofSeconds(30)), List.of(), "smp", Duration.ofHours(1), "/usr/sbin/runuser",
          "mem_free", Optional.empty(), DEFAULT_SPOOL);
    }

    public Config withQstat(Tool tool) {
      return new Config(library, tool, queues, parallelEnvironment, defaultTimeLimit, runuser, memoryComplex, results, spool);
    }

    /** The cluster as a home: its users' opted-in jobs are published, their runs left in {@code folder} for the starter method. */
    public Config withHome(Path folder, Path qmasterSpool) {
      return new Config(library, qstat, queues, parallelEnvironment, defaultTimeLimit, runuser, memoryComplex, Optional.of(folder), qmasterSpool);
    }
  }

  /** Where Debian's gridengine-master spools (its {@code bootstrap}'s {@code qmaster_spool_dir}). */
  public static final Path DEFAULT_SPOOL = Path.of("/var/spool/gridengine/qmaster");

  private final Config config;
  private final Optional<GridEngineHome> home;
  private final Session session;
  private final String user;
  private final Clock clock;
  private final String description;
  /** Pilots this handler cancelled: DRMAA reports them aborted, as it does jobs that never started. */
  private final Set<String> cancelled = ConcurrentHashMap.newKeySet();
  /** The DRMAA job states by name, for pilots' status details. */
  private static final Map<Integer, String> STATES = Map.of(Session.UNDETERMINED, "UNDETERMINED", Session.QUEUED_ACTIVE, "QUEUED_ACTIVE",
      Session.SYSTEM_ON_HOLD, "SYSTEM_ON_HOLD", Session.USER_ON_HOLD, "USER_ON_HOLD", Session.USER_SYSTEM_ON_HOLD, "USER_SYSTEM_ON_HOLD",
      Session.RUNNING, "RUNNING", Session.SYSTEM_SUSPENDED, "SYSTEM_SUSPENDED", Session.USER_SUSPENDED, "USER_SUSPENDED",
      Session.USER_SYSTEM_SUSPENDED, "USER_SYSTEM_SUSPENDED", Session.DONE, "DONE");
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
    this.home = config.results().map(r -> new GridEngineHome(config.qstat(), new Results(r), config.spool(), config.memoryComplex(), clock));
    this.description = "Grid Engine " + session.getDrmSystem() + " (DRMAA " + session.getVersion() + ", " + session.getDrmaaImplementation() + ")";
  }

  /** Checks that qstat answers, then loads the library and opens the DRMAA session. */
  public static GridEngineHandler connect(Config config) {
    config.qstat().run(List.of("-g", "c", "-xml"), null).requireSuccess("connect to Grid Engine", Category.UNAVAILABLE);
    Session session;
    try {
      session = NativeSession.load(config.library());
      session.init("");
    } catch (AlreadyActiveSessionException e) {
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
    int requests = 2;
    long bytes = pendingXml.length() + queuesXml.length();
    if (home.isPresent()) {
      RequestCost cost = home.get().observe();
      bytes += cost.bytes();
      requests += cost.requests();
      home.get().sweep();
    }
    return new QueueObservation(at, p.jobs(), p.coreSeconds(), p.queues(), s.used(), s.usable(), new RequestCost(requests, bytes));
  }

  /** Advance reservations through {@code qconf} and {@code qrsub} beside the site's {@code qstat}, held for the daemon's user ({@link GridEngineEscrow}). */
  @Override
  public Optional<Escrow> escrow() {
    return Optional.of(new GridEngineEscrow(reservations(), config.parallelEnvironment(), user));
  }

  private GridEngineReservations reservations() {
    return new GridEngineReservations(GridEngineHome.beside(config.qstat(), "qconf"));
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
    if (!spec.reservation().isEmpty()) {
      long ar = reservations().show(spec.reservation()).orElseThrow(() -> new HandlerException(Category.REJECTED, "pilot " + spec.name()
          + ": Grid Engine has no advance reservation " + spec.reservation())).id();
      nativeSpec.append(" -ar ").append(ar);
    }
    if (spec.memoryMb() > 0 && !config.memoryComplex().isEmpty()) {
      // -w w: DRMAA's verification ignores load values, so a load-value complex (mem_free) looks unknown to it and every queue
      // unsuitable; the scheduler compares it with each host's load as usual
      nativeSpec.append(" -w w -l ").append(config.memoryComplex()).append('=').append(spec.memoryMb()).append('M');
    }
    try {
      JobTemplate t = session.createJobTemplate();
      try {
        t.setRemoteCommand(command.get(0));
        t.setArgs(command.subList(1, command.size()));
        t.setJobName(spec.name());
        t.setWorkingDirectory(spec.workingDirectory());
        t.setJobEnvironment(spec.environment());
        t.setOutputPath(":" + spec.output());
        t.setJoinFiles(true);
        t.setNativeSpecification(nativeSpec.toString());
        t.setJobSubmissionState(spec.held() ? JobTemplate.HOLD_STATE : JobTemplate.ACTIVE_STATE);
        return new PilotHandle(KIND, session.runJob(t));
      } finally {
        session.deleteJobTemplate(t);
      }
    } catch (DrmaaException | IllegalArgumentException | InternalException e) {
      throw failure("submit pilot " + spec.name() + " as " + spec.account(), e);
    }
  }

  @Override
  public void hold(PilotHandle pilot) {
    control(pilot, Session.HOLD, "hold");
  }

  @Override
  public void release(PilotHandle pilot) {
    control(pilot, Session.RELEASE, "release");
  }

  @Override
  public void cancel(PilotHandle pilot) {
    cancelled.add(pilot.nativeId());
    try {
      session.control(pilot.nativeId(), Session.TERMINATE);
    } catch (InvalidJobException e) {
      // already gone
    } catch (DrmaaException | InternalException e) {
      throw failure("cancel pilot " + pilot, e);
    }
  }

  private void control(PilotHandle pilot, int action, String verb) {
    try {
      session.control(pilot.nativeId(), action);
    } catch (DrmaaException | InternalException e) {
      throw failure(verb + " pilot " + pilot, e);
    }
  }

  @Override
  public PilotStatus status(PilotHandle pilot) {
    PilotStatus done = ended.get(pilot.nativeId());
    if (done != null) {
      return done;
    }
    int state;
    try {
      state = session.getJobProgramStatus(pilot.nativeId());
    } catch (InvalidJobException e) {
      return PilotStatus.unknown(pilot, "Grid Engine does not know job " + pilot.nativeId() + " (" + e.getMessage() + ")");
    } catch (DrmaaException | InternalException e) {
      throw failure("status of pilot " + pilot, e);
    }
    String name = STATES.getOrDefault(state, "state " + state);
    return switch (state) {
      case Session.QUEUED_ACTIVE -> new PilotStatus(pilot, PilotState.PENDING, OptionalInt.empty(), name);
      case Session.USER_ON_HOLD, Session.SYSTEM_ON_HOLD, Session.USER_SYSTEM_ON_HOLD ->
          new PilotStatus(pilot, PilotState.HELD, OptionalInt.empty(), name);
      case Session.RUNNING, Session.USER_SUSPENDED, Session.SYSTEM_SUSPENDED, Session.USER_SYSTEM_SUSPENDED ->
          new PilotStatus(pilot, PilotState.RUNNING, OptionalInt.empty(), name);
      case Session.DONE, Session.FAILED -> reap(pilot);
      default -> PilotStatus.unknown(pilot, "DRMAA answered " + name);
    };
  }

  private PilotStatus reap(PilotHandle pilot) {
    PilotStatus status;
    try {
      status = ofResult(pilot, session.wait(pilot.nativeId(), Session.TIMEOUT_NO_WAIT), cancelled.contains(pilot.nativeId()));
    } catch (InvalidJobException e) {
      PilotStatus other = ended.get(pilot.nativeId()); // another thread reaped it
      return other != null ? other : PilotStatus.unknown(pilot, "ended, but its result is gone: " + e.getMessage());
    } catch (DrmaaException | InternalException e) {
      throw failure("result of pilot " + pilot, e);
    }
    ended.put(pilot.nativeId(), status);
    return status;
  }

  /** A pilot's end in the SPI's words: exit 0 completed, cancelled if this handler cancelled it, failed otherwise. */
  static PilotStatus ofResult(PilotHandle pilot, JobInfo info, boolean cancelledHere) throws DrmaaException {
    if (info.hasExited()) {
      return new PilotStatus(pilot, info.getExitStatus() == 0 ? PilotState.COMPLETED : PilotState.FAILED, OptionalInt.of(info.getExitStatus()),
          "exited " + info.getExitStatus());
    }
    if (cancelledHere) {
      return new PilotStatus(pilot, PilotState.CANCELLED, OptionalInt.empty(), "terminated by the daemon");
    }
    String why = info.hasSignaled() ? "killed by " + info.getTerminatingSignal() : "aborted before it ran (Grid Engine could not start it)";
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

  private static HandlerException failure(String what, Exception e) {
    Category category = Category.INTERNAL;
    if (e instanceof InvalidJobException) {
      category = Category.NOT_FOUND;
    } else if (e instanceof DrmCommunicationException || e instanceof TryLaterException) {
      category = Category.UNAVAILABLE;
    } else if (e instanceof AuthorizationException) {
      category = Category.AUTHENTICATION;
    } else if (e instanceof DeniedByDrmException || e instanceof IllegalArgumentException || e instanceof InvalidAttributeValueException) {
      category = Category.REJECTED;
    }
    return new HandlerException(category, what + ": " + e.getMessage(), e);
  }

  @Override
  public Optional<GridEngineHome> homeSide() {
    return home;
  }

  @Override
  public String noHome() {
    return "this Grid Engine cluster publishes no jobs of its users: its site file names no results folder (results:)";
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
