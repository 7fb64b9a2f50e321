package org.coalition.daemon;

import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import org.coalition.coordination.Claim;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.daemon.PilotLifecycle.Effect;
import org.coalition.daemon.PilotLifecycle.Event;
import org.coalition.daemon.PilotLifecycle.Phase;
import org.coalition.handler.PilotHandle;
import org.coalition.job.JobLayout;

/**
 * A pilot this broker submitted: its capability, its shape, and where it is in its {@link
 * PilotLifecycle}. Its shape never changes; where it is and what it holds is one immutable {@link
 * State}, replaced whole under this pilot's lock by the methods below and by nothing else, so a
 * reader on another thread sees one moment of it, never half a change. Phase changes go through
 * the lifecycle table ({@link #fire}, and the methods that fire an event with the data it brings).
 */
final class Pilot {
  final String id;
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
   * @param reported whether its run's result was handed in
   * @param confirmed whether it has called with the token it was handed with its job: it got the
   *     job (a claim whose answer was lost never is)
   * @param adopting restored from the journal with a claim not yet taken back under this daemon's session
   * @param askedMillis when it first asked for work (the broker's clock's milliseconds; -1 before):
   *     its time limit counts from about then
   * @param runs how many jobs it was handed
   * @param evicted its batch job was cancelled to give its cores back to local users ({@link Eviction})
   */
  record State(Phase phase, byte[] tokenHash, PilotHandle handle, Claim claim, double startedAt, String output, boolean reported,
      boolean confirmed, boolean adopting, long askedMillis, int runs, boolean evicted) {
    State with(Phase p) {
      return new State(p, tokenHash, handle, claim, startedAt, output, reported, confirmed, adopting, askedMillis, runs, evicted);
    }

    State withToken(byte[] hash) {
      return new State(phase, hash, handle, claim, startedAt, output, reported, confirmed, adopting, askedMillis, runs, evicted);
    }

    State withHandle(PilotHandle h) {
      return new State(phase, tokenHash, h, claim, startedAt, output, reported, confirmed, adopting, askedMillis, runs, evicted);
    }

    /** Handed {@code c}, its run beginning at {@code start}: one run more. */
    State withRun(Claim c, double start) {
      return new State(phase, tokenHash, handle, c, start, output, reported, confirmed, adopting, askedMillis, runs + 1, evicted);
    }

    /** The claim, output, report and confirmation of its last run behind it. */
    State withoutRun() {
      return new State(phase, tokenHash, handle, null, 0, null, false, false, adopting, askedMillis, runs, evicted);
    }

    State withAsked(long millis) {
      return new State(phase, tokenHash, handle, claim, startedAt, output, reported, confirmed, adopting, millis, runs, evicted);
    }

    State withOutput(String reference) {
      return new State(phase, tokenHash, handle, claim, startedAt, reference, reported, confirmed, adopting, askedMillis, runs, evicted);
    }

    State withReported() {
      return new State(phase, tokenHash, handle, claim, startedAt, output, true, confirmed, adopting, askedMillis, runs, evicted);
    }

    State withConfirmed() {
      return new State(phase, tokenHash, handle, claim, startedAt, output, reported, true, adopting, askedMillis, runs, evicted);
    }

    State withAdopting(boolean waits) {
      return new State(phase, tokenHash, handle, claim, startedAt, output, reported, confirmed, waits, askedMillis, runs, evicted);
    }

    State withEvicted(boolean cancelling) {
      return new State(phase, tokenHash, handle, claim, startedAt, output, reported, confirmed, adopting, askedMillis, runs, cancelling);
    }
  }

  Pilot(String id, byte[] tokenHash, String account, int cores, long memoryMb, long walltime, JobLayout layout, JobRef target,
      long submittedMillis) {
    this(id, tokenHash, account, cores, memoryMb, walltime, 0, layout, target, submittedMillis);
  }

  /** A pilot whose {@code walltime} includes {@code extraSeconds} beyond its first job's limit ({@link PilotReuse}). */
  Pilot(String id, byte[] tokenHash, String account, int cores, long memoryMb, long walltime, long extraSeconds, JobLayout layout, JobRef target,
      long submittedMillis) {
    this.id = id;
    this.extraSeconds = extraSeconds;
    this.account = account;
    this.cores = cores;
    this.memoryMb = memoryMb;
    this.walltime = walltime;
    this.layout = layout;
    this.target = target;
    this.submittedMillis = submittedMillis;
    this.state = new State(Phase.SUBMITTING, tokenHash, null, null, 0, null, false, false, false, -1, 0, false);
  }

  /** A pilot as a restarted daemon's journal kept it ({@link PilotJournal}), in the phase it was in. */
  static Pilot restored(PilotJournal.Entry e) {
    Pilot p = new Pilot(e.id(), HexFormat.of().parseHex(e.tokenSha256()), e.account(), e.cores(),
        e.memoryMb() == null ? 0 : e.memoryMb(), e.walltime(), e.layout() == null ? JobLayout.ONE : e.layout(), e.target(),
        e.submittedMillis());
    p.state = new State(Phase.valueOf(e.phase()), p.state.tokenHash(), e.handle(), e.claim(), e.startedAt(), e.output(), e.reported(),
        e.confirmed() == null || e.confirmed(), false, -1, 0, false);
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

  Claim claim() {
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

  boolean confirmed() {
    return state.confirmed();
  }

  boolean adopting() {
    return state.adopting();
  }

  int runs() {
    return state.runs();
  }

  boolean evicted() {
    return state.evicted();
  }

  byte[] tokenHash() {
    return state.tokenHash();
  }

  /** Its claim; refused when it holds none. */
  Claim claimed() {
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
        s.phase().name(), s.handle(), s.claim(), s.startedAt(), s.output(), s.reported(), s.confirmed(), layout.one() ? null : layout);
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

  /** It called with the token of its job: it has the job. True when that is news (to be journaled). */
  synchronized boolean confirm() {
    if (state.confirmed()) {
      return false;
    }
    state = state.withConfirmed();
    return true;
  }

  /** Its run's output is stored under {@code reference}. */
  synchronized void stored(String reference) {
    state = state.withOutput(reference);
  }

  /** Its run's result is handed in: {@link Event#REPORTED}. */
  synchronized List<Effect> reportedRun() {
    Transition<Phase, Effect> t = transition(Event.REPORTED);
    state = state.with(t.next()).withReported();
    return t.effects();
  }

  /** Whether its batch job is being cancelled to give its cores back to local users ({@code false}: the cancel failed, it runs on). */
  synchronized void evicted(boolean cancelling) {
    state = state.withEvicted(cancelling);
  }

  /** Restored with a claim: whether it waits for that claim to be taken back under this daemon's session. */
  synchronized void adopting(boolean waits) {
    state = state.withAdopting(waits);
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
