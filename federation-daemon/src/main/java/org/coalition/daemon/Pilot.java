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
 * A pilot this broker submitted: its capability, its shape, and where it is in its
 * {@link PilotLifecycle}. The handle and the claim are set as the pilot moves on; the phase changes
 * only through {@link #fire}.
 */
final class Pilot {
  final String id;
  /**
   * The SHA-256 of its capability: first the one in the pilot job's environment, replaced by a
   * fresh one handed over with its job (so the one in the environment, which the job's account
   * can read, is void before the job starts). The daemon keeps no token itself, only its hash.
   */
  volatile byte[] tokenHash;
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
  private Phase phase = Phase.SUBMITTING;
  volatile PilotHandle handle;
  volatile Claim claim;
  volatile double startedAt;
  /** Where its run's output was stored (a reference), once stored; whether the result was handed in. */
  volatile String output;
  volatile boolean reported;
  /** Whether it has called with the token it was handed with its job: it got the job (a claim whose answer was lost never is). */
  volatile boolean confirmed;
  /** Restored from the journal with a claim not yet taken back under this daemon's session. */
  volatile boolean adopting;
  /** When it first asked for work (the broker's clock's milliseconds; -1 before): its time limit counts from about then. */
  volatile long askedMillis = -1;
  /** How many jobs it was handed. */
  volatile int runs;
  /** Its batch job was cancelled to give its cores back to local users ({@link Eviction}). */
  volatile boolean evicted;

  Pilot(String id, byte[] tokenHash, String account, int cores, long memoryMb, long walltime, JobLayout layout, JobRef target,
      long submittedMillis) {
    this(id, tokenHash, account, cores, memoryMb, walltime, 0, layout, target, submittedMillis);
  }

  /** A pilot whose {@code walltime} includes {@code extraSeconds} beyond its first job's limit ({@link PilotReuse}). */
  Pilot(String id, byte[] tokenHash, String account, int cores, long memoryMb, long walltime, long extraSeconds, JobLayout layout, JobRef target,
      long submittedMillis) {
    this.id = id;
    this.extraSeconds = extraSeconds;
    this.tokenHash = tokenHash;
    this.account = account;
    this.cores = cores;
    this.memoryMb = memoryMb;
    this.walltime = walltime;
    this.layout = layout;
    this.target = target;
    this.submittedMillis = submittedMillis;
  }

  /** A pilot as a restarted daemon's journal kept it ({@link PilotJournal}), in the phase it was in. */
  static Pilot restored(PilotJournal.Entry e) {
    Pilot p = new Pilot(e.id(), HexFormat.of().parseHex(e.tokenSha256()), e.account(), e.cores(),
        e.memoryMb() == null ? 0 : e.memoryMb(), e.walltime(), e.layout() == null ? JobLayout.ONE : e.layout(), e.target(),
        e.submittedMillis());
    p.phase = Phase.valueOf(e.phase());
    p.handle = e.handle();
    p.claim = e.claim();
    p.startedAt = e.startedAt();
    p.output = e.output();
    p.reported = e.reported();
    p.confirmed = e.confirmed() == null || e.confirmed();
    return p;
  }

  /** Its claim; refused when it holds none. */
  Claim claimed() {
    Claim c = claim;
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
    if (runs == 0) {
      return walltime;
    }
    long since = askedMillis >= 0 ? askedMillis : submittedMillis;
    return walltime - Math.max(0, nowMillis - since) / 1000;
  }

  /** It asks for work at {@code nowMillis}: the claim, output and report of its last run are behind it. */
  synchronized void asks(long nowMillis) {
    if (askedMillis < 0) {
      askedMillis = nowMillis;
    }
    if (phase == Phase.REPORTED || phase == Phase.IDLE) {
      claim = null;
      startedAt = 0;
      output = null;
      reported = false;
      confirmed = false;
    }
  }

  /** What the journal keeps of it now. */
  synchronized PilotJournal.Entry entry() {
    return new PilotJournal.Entry(id, HexFormat.of().formatHex(tokenHash), account, cores, memoryMb, walltime, target, submittedMillis,
        phase.name(), handle, claim, startedAt, output, reported, confirmed, layout.one() ? null : layout);
  }

  synchronized Phase phase() {
    return phase;
  }

  /** Whether it has not asked for work yet (it waits in the local queue or is starting). */
  synchronized boolean waiting() {
    return phase == Phase.SUBMITTING || phase == Phase.PENDING;
  }

  /**
   * Moves the pilot on {@code event}; returns the effects to carry out.
   *
   * @throws PilotService.PilotRefused when the event is out of order in its phase
   */
  synchronized List<Effect> fire(Event event) {
    Transition<Phase, Effect> t = PilotLifecycle.on(phase, event).orElseThrow(() -> new PilotService.PilotRefused(outOfOrder(event)));
    phase = t.next();
    return t.effects();
  }

  private String outOfOrder(Event event) {
    return event == Event.ASKED ? "pilot " + id + " already asked for work and holds its job or is being given one"
        : "pilot " + id + " is " + phase.name().toLowerCase(Locale.ROOT) + ": " + event.name().toLowerCase(Locale.ROOT) + " is out of order";
  }
}
