package org.coalition.daemon.executor;

import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import org.coalition.coordination.Claim;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.daemon.base.Transition;
import org.coalition.daemon.executor.PilotLifecycle.Effect;
import org.coalition.daemon.executor.PilotLifecycle.Event;
import org.coalition.daemon.executor.PilotLifecycle.Phase;
import org.coalition.daemon.pilot.PilotService;
import org.coalition.handler.PilotHandle;
import org.coalition.job.JobLayout;

/**
 * A pilot this broker submitted: its capability, its shape, and where it is in its {@link
 * PilotLifecycle}. Its shape never changes; where it is and what it holds is one immutable {@link
 * State}, replaced whole under this pilot's lock by the methods below and by nothing else, so a
 * reader on another thread sees one moment of it, never half a change. Phase changes go through
 * the lifecycle table ({@link #fire}, and the methods that fire an event with the data it brings).
 */
public final class Pilot {
  public final String id;
  final String account;
  final int cores;
  /** The memory of the job it was submitted for (its own margin aside); 0: it asked the site's default, and runs only jobs that name none. */
  final long memoryMb;
  final long walltime;
  /** What its time limit has beyond its first job's, for further jobs (0 for a pilot a restarted daemon took back). */
  final long extraSeconds;
  /** The layout it asked for (nodes, tasks, GRES per node): it runs only jobs laid out the same. */
  final JobLayout layout;
  /** The job it was submitted for (its shape); it may run another one that fits. */
  final JobRef target;
  /** When it was submitted, in the broker's clock's milliseconds. */
  final long submittedMillis;
  /**
   * The batch system's reservation it was submitted into, a capacity contract's block this site
   * sold to its home ("" for none): its cores are the buyer's for the slot, so local users'
   * demand does not send it away after a job ({@link LateBinding#heldBack}).
   */
  final String reservation;
  private volatile State state;

  /**
   * Where a pilot is and what it holds at one moment.
   *
   * @param tokenHash the SHA-256 of its capability: first the one in the pilot job's environment,
   *     replaced by a fresh one handed over with its job (so the one in the environment, which the
   *     job's account can read, is void before the job starts). The daemon keeps no token itself
   * @param handle its batch job, once submitted
   * @param claim the claim of the job it runs, once handed one
   * @param startedAt when its run began, on the federation's clock
   * @param output where its run's output was stored (a reference), once stored
   * @param reported whether its run's result was handed in: the phase REPORTED, kept beside the
   *     phase for a report that comes in after the batch job was seen ending (GONE)
   * @param askedMillis when it first asked for work (the broker's clock's milliseconds; -1 before):
   *     its time limit counts from about then
   * @param runs how many jobs it was handed
   */
  record State(Phase phase, byte[] tokenHash, PilotHandle handle, Claim claim, double startedAt, String output, boolean reported,
      long askedMillis, int runs) {
    State with(Phase p) {
      return new State(p, tokenHash, handle, claim, startedAt, output, reported, askedMillis, runs);
    }

    State withToken(byte[] hash) {
      return new State(phase, hash, handle, claim, startedAt, output, reported, askedMillis, runs);
    }

    State withHandle(PilotHandle h) {
      return new State(phase, tokenHash, h, claim, startedAt, output, reported, askedMillis, runs);
    }

    /** Handed {@code c}, its run beginning at {@code start}: one run more. */
    State withRun(Claim c, double start) {
      return new State(phase, tokenHash, handle, c, start, output, reported, askedMillis, runs + 1);
    }

    /** The claim, output and report of its last run behind it. */
    State withoutRun() {
      return new State(phase, tokenHash, handle, null, 0, null, false, askedMillis, runs);
    }

    State withAsked(long millis) {
      return new State(phase, tokenHash, handle, claim, startedAt, output, reported, millis, runs);
    }

    State withOutput(String reference) {
      return new State(phase, tokenHash, handle, claim, startedAt, reference, reported, askedMillis, runs);
    }

    State withReported() {
      return new State(phase, tokenHash, handle, claim, startedAt, output, true, askedMillis, runs);
    }
  }

  Pilot(String id, byte[] tokenHash, String account, int cores, long memoryMb, long walltime, JobLayout layout, JobRef target,
      long submittedMillis) {
    this(id, tokenHash, account, cores, memoryMb, walltime, 0, layout, target, submittedMillis, "");
  }

  /**
   * A pilot whose {@code walltime} includes {@code extraSeconds} beyond its first job's limit
   * ({@link org.coalition.daemon.base.PilotReuse}), in the batch system's {@code reservation} ("" for none).
   */
  Pilot(String id, byte[] tokenHash, String account, int cores, long memoryMb, long walltime, long extraSeconds, JobLayout layout, JobRef target,
      long submittedMillis, String reservation) {
    this.id = id;
    this.reservation = reservation;
    this.extraSeconds = extraSeconds;
    this.account = account;
    this.cores = cores;
    this.memoryMb = memoryMb;
    this.walltime = walltime;
    this.layout = layout;
    this.target = target;
    this.submittedMillis = submittedMillis;
    this.state = new State(Phase.SUBMITTING, tokenHash, null, null, 0, null, false, -1, 0);
  }

  /**
   * A pilot as a restarted daemon's journal kept it ({@link PilotJournal}), in the phase it was in,
   * or waiting for its claim's adoption where it held one ({@link PilotLifecycle#restored}).
   */
  static Pilot restored(PilotJournal.Entry e) {
    Pilot p = new Pilot(e.id(), HexFormat.of().parseHex(e.tokenSha256()), e.account(), e.cores(),
        e.memoryMb() == null ? 0 : e.memoryMb(), e.walltime(), 0, e.layout() == null ? JobLayout.ONE : e.layout(), e.target(),
        e.submittedMillis(), e.reservation() == null ? "" : e.reservation());
    Phase phase = PilotLifecycle.restored(Phase.valueOf(e.phase()), e.claim() != null, e.reported(), e.confirmed());
    p.state = new State(phase, p.state.tokenHash(), e.handle(), e.claim(), e.startedAt(), e.output(), e.reported(), -1, 0);
    return p;
  }

  // --- reads: one moment of its state ---------------------------------------------------------

  /** All of its state at this moment. */
  State state() {
    return state;
  }

  Phase phase() {
    return state.phase();
  }

  PilotHandle handle() {
    return state.handle();
  }

  public Claim claim() {
    return state.claim();
  }

  double startedAt() {
    return state.startedAt();
  }

  String output() {
    return state.output();
  }

  boolean reported() {
    return state.reported();
  }

  int runs() {
    return state.runs();
  }

  byte[] tokenHash() {
    return state.tokenHash();
  }

  /** Its claim; refused when it holds none. */
  public Claim claimed() {
    Claim c = state.claim();
    if (c == null) {
      throw new PilotService.PilotRefused("pilot " + id + " has no job");
    }
    return c;
  }

  /**
   * Whether it can run {@code j} at {@code nowMillis}: as many cores and memory at most as it has
   * (memory named only where it asked for some), laid out as it is (its tasks and nodes are what
   * {@code srun} sees), and a time limit within its time left ({@link #secondsLeft}).
   */
  boolean fits(JobSpec j, long nowMillis) {
    return j.layout().equals(layout) && j.cores() <= cores && j.walltimeSeconds() <= secondsLeft(nowMillis)
        && (j.memoryMb() == 0 || j.memoryMb() <= memoryMb);
  }

  /**
   * The time it has left for jobs: all of it before its first job; after, what is left counted from
   * its first call (from its submission for a pilot a restarted daemon took back: less, never more).
   */
  long secondsLeft(long nowMillis) {
    State s = state;
    if (s.runs() == 0) {
      return walltime;
    }
    long since = s.askedMillis() >= 0 ? s.askedMillis() : submittedMillis;
    return walltime - Math.max(0, nowMillis - since) / 1000;
  }

  /** What the journal keeps of it now. */
  PilotJournal.Entry entry() {
    State s = state;
    return new PilotJournal.Entry(id, HexFormat.of().formatHex(s.tokenHash()), account, cores, memoryMb, walltime, target, submittedMillis,
        PilotLifecycle.journaled(s.phase()).name(), s.handle(), s.claim(), s.startedAt(), s.output(), s.reported(),
        PilotLifecycle.confirmed(s.phase()), layout.one() ? null : layout, reservation.isEmpty() ? null : reservation);
  }

  /** Whether it has not asked for work yet (it waits in the local queue or is starting). */
  boolean waiting() {
    Phase p = state.phase();
    return p == Phase.SUBMITTING || p == Phase.PENDING;
  }

  // --- changes: each replaces the state whole, under this pilot's lock ------------------------

  /**
   * Moves the pilot on {@code event}; returns the effects to carry out.
   *
   * @throws PilotService.PilotRefused when the event is out of order in its phase
   */
  synchronized List<Effect> fire(Event event) {
    Transition<Phase, Effect> t = transition(event);
    state = state.with(t.next());
    return t.effects();
  }

  /** The batch system took it as {@code h}: {@link Event#SUBMITTED} with its handle. */
  synchronized List<Effect> submitted(PilotHandle h) {
    Transition<Phase, Effect> t = transition(Event.SUBMITTED);
    state = state.with(t.next()).withHandle(h);
    return t.effects();
  }

  /** It asks for work at {@code nowMillis}: {@link Event#ASKED}, the claim, output and report of its last run behind it. */
  synchronized List<Effect> asks(long nowMillis) {
    Transition<Phase, Effect> t = transition(Event.ASKED);
    State s = state;
    State next = s.phase() == Phase.REPORTED || s.phase() == Phase.IDLE ? s.withoutRun() : s;
    state = next.with(t.next()).withAsked(s.askedMillis() < 0 ? nowMillis : s.askedMillis());
    return t.effects();
  }

  /** It was handed {@code claim}, its run beginning at {@code startedAt}: {@link Event#CLAIMED}, one run more. */
  synchronized List<Effect> claimed(Claim claim, double startedAt) {
    Transition<Phase, Effect> t = transition(Event.CLAIMED);
    state = state.with(t.next()).withRun(claim, startedAt);
    return t.effects();
  }

  /** Its capability is now the one whose SHA-256 is {@code hash} (a fresh token handed over with its job). */
  synchronized void newToken(byte[] hash) {
    state = state.withToken(hash);
  }

  /** It called with the token of its job: {@link Event#CONFIRMED} if it was HANDED. True when that is news (to be journaled). */
  synchronized boolean confirm() {
    if (state.phase() != Phase.HANDED) {
      return false;
    }
    fire(Event.CONFIRMED);
    return true;
  }

  /** Its run's output is stored under {@code reference}. */
  synchronized void stored(String reference) {
    state = state.withOutput(reference);
  }

  /** Its run's result is handed in: {@link Event#REPORTED}. */
  synchronized List<Effect> reportedRun() {
    return reported(Event.REPORTED);
  }

  /**
   * Its batch job is about to be cancelled for local users: {@link Event#EVICTED}. False (and no
   * change) when it no longer holds a run it could be evicted from: it moved on since the eviction
   * round read it (its run reported, its batch job seen ending).
   */
  synchronized boolean evicted() {
    Phase p = state.phase();
    if (p != Phase.RUNNING && p != Phase.HANDED) {
      return false;
    }
    fire(Event.EVICTED);
    return true;
  }

  /** Its claim is held under this daemon's session again, or was found lost: {@link Event#ADOPTED}, if it was adopting. */
  synchronized void adopted() {
    if (adopting()) {
      fire(Event.ADOPTED);
    }
  }

  /** Its run's result was in already when its claim was to be adopted: {@link Event#FOUND_REPORTED}. */
  synchronized void foundReported() {
    reported(Event.FOUND_REPORTED);
  }

  private List<Effect> reported(Event event) {
    Transition<Phase, Effect> t = transition(event);
    state = state.with(t.next()).withReported();
    return t.effects();
  }

  /** Whether it waits for its claim's adoption under this daemon's session (restored from the journal). */
  boolean adopting() {
    Phase p = state.phase();
    return p == Phase.ADOPTING || p == Phase.ADOPTING_HANDED;
  }

  private Transition<Phase, Effect> transition(Event event) {
    return PilotLifecycle.on(state.phase(), event).orElseThrow(() -> new PilotService.PilotRefused(outOfOrder(event)));
  }

  private String outOfOrder(Event event) {
    return event == Event.ASKED ? "pilot " + id + " already asked for work and holds its job or is being given one"
        : "pilot " + id + " is " + state.phase().name().toLowerCase(Locale.ROOT) + ": " + event.name().toLowerCase(Locale.ROOT)
            + " is out of order";
  }
}
