package org.coalition.daemon.executor;

import java.util.EnumSet;
import java.util.Optional;
import org.coalition.daemon.base.Transition;
import org.coalition.daemon.base.TransitionTable;

/**
 * The life of a pilot this site submitted, as a transition table: which event moves it from which
 * phase to which, and what the executor side must then do. A pilot runs one job at a time (late
 * binding: it is bound to a job when it asks for work, not when it is submitted); where the site
 * reuses pilots ({@link org.coalition.daemon.base.PilotReuse}) it asks again after each run, from REPORTED or IDLE.
 *
 * <pre>
 *   SUBMITTING --submitted--> PENDING --asked--> ASKED --claimed--> HANDED --confirmed--> RUNNING --reported--> REPORTED
 *        |  '--------------asked (before the answer)--^  '--no work--> IDLE   evicted '---------.---------'
 *   submit failed          pending too long,                                                  v  ^ evict failed (to RUNNING)
 *        v                 batch job ended                                                EVICTING
 *      GONE               (every phase ends in GONE when its batch job ends)
 *
 *   restored from the journal with a run under way: ADOPTING --adopted--> RUNNING
 *                                  ... with a job not yet confirmed: ADOPTING_HANDED --adopted--> HANDED
 *                                  ... whose result was in already: ADOPTING(_HANDED) --found reported--> REPORTED
 * </pre>
 *
 * <p>The journal ({@link PilotJournal}) keeps a phase by name, and a daemon may be downgraded one
 * release, so it is written only the phases every reader of the journal knows: HANDED and
 * ADOPTING_HANDED as RUNNING with {@code confirmed: false}, EVICTING and ADOPTING as RUNNING
 * ({@link #journaled}); a restored one is read back the same way ({@link #restored}).
 */
public final class PilotLifecycle {
  /** Where a pilot is in its life. */
  public enum Phase {
    /** Being submitted to the local batch system. */
    SUBMITTING,
    /** In the local queue, or started but not yet asking for work. */
    PENDING,
    /** Asked for work; the broker is choosing (or failed to choose) a job. */
    ASKED,
    /**
     * A job was claimed for it and handed over, but it has not called with the token that came
     * with the job: the answer may never have reached it (this daemon stopped, the link broke).
     */
    HANDED,
    /** Holds a claim on a job and runs it (it called with the job's token). */
    RUNNING,
    /** Its batch job is being cancelled to give its cores back to local users ({@link Eviction}); its run counts for nothing. */
    EVICTING,
    /** Restored from the journal with a run under way; its claim is not yet held under this daemon's session. */
    ADOPTING,
    /** Restored from the journal with a job it had not confirmed yet; its claim is not yet held under this daemon's session. */
    ADOPTING_HANDED,
    /** Reported its run's end; it asks again or its batch job is finishing. */
    REPORTED,
    /** Asked for work and got none; it asks again or exits. */
    IDLE,
    /** Forgotten: its batch job ended or was never submitted. */
    GONE
  }

  /** What happens to a pilot. */
  public enum Event {
    SUBMITTED,
    SUBMIT_FAILED,
    ASKED,
    CLAIMED,
    /** It called with the token it was handed with its job: it has the job. */
    CONFIRMED,
    NO_WORK,
    REPORTED,
    /** Its batch job is being cancelled for local users. */
    EVICTED,
    /** Cancelling its batch job failed: it runs on. */
    EVICT_FAILED,
    /** Its claim is held under this daemon's session again, or was found lost (its next heartbeat is told so). */
    ADOPTED,
    /** Its claim was to be adopted, but its run's result was in already: handed in just before this daemon restarted. */
    FOUND_REPORTED,
    /** Waited in the local queue past {@code pilots.pending-limit} without asking. */
    PENDING_TOO_LONG,
    /** Its batch job ended (completed, cancelled or unknown to the batch system). */
    BATCH_ENDED,
    /** Its batch job failed. */
    BATCH_FAILED
  }

  /** What the executor side does after a transition. */
  public enum Effect {
    /** Drop the pilot from the registry. */
    FORGET,
    /** Cancel the pilot's batch job. */
    CANCEL_BATCH_JOB,
    /** Give the claimed job back to the federation queue, if the pilot holds a claim: the run ended unreported. */
    RELEASE_CLAIM,
    /** Give the claimed job back: the pilot never called for the job it was handed, so no run began. */
    RELEASE_NEVER_CONFIRMED,
    /** Give the claimed job back: the run was evicted for local users and credits nothing. */
    RELEASE_EVICTED,
    /** Record that the pilot died before asking for work (usually a broken {@code pilots.command}). */
    RECORD_DIED_BEFORE_ASKING,
    /** Record that the pilot was cancelled after waiting too long. */
    RECORD_PENDING_TOO_LONG
  }

  /** The phases in which a pilot holds a claim on a job (its run under way, or handed to it). */
  private static final EnumSet<Phase> HOLDING = EnumSet.of(Phase.HANDED, Phase.RUNNING, Phase.EVICTING, Phase.ADOPTING, Phase.ADOPTING_HANDED);

  private static final TransitionTable<Phase, Event, Effect> TABLE = new TransitionTable<>(Phase.class, Event.class);

  static {
    on(Phase.SUBMITTING, Event.SUBMITTED, Transition.to(Phase.PENDING));
    on(Phase.SUBMITTING, Event.SUBMIT_FAILED, Transition.to(Phase.GONE, Effect.FORGET));
    // A pilot may start, and ask, before the batch system's answer to its submission is back (the
    // local system starts it inside submit): the asking counts, the late answer changes nothing.
    on(Phase.SUBMITTING, Event.ASKED, Transition.to(Phase.ASKED));
    for (Phase asked : new Phase[] {Phase.ASKED, Phase.HANDED, Phase.RUNNING, Phase.EVICTING, Phase.REPORTED, Phase.IDLE}) {
      on(asked, Event.SUBMITTED, Transition.to(asked));
    }
    on(Phase.PENDING, Event.ASKED, Transition.to(Phase.ASKED));
    on(Phase.PENDING, Event.PENDING_TOO_LONG, Transition.to(Phase.GONE, Effect.CANCEL_BATCH_JOB, Effect.FORGET,
        Effect.RECORD_PENDING_TOO_LONG));
    on(Phase.PENDING, Event.BATCH_ENDED, Transition.to(Phase.GONE, Effect.FORGET));
    on(Phase.PENDING, Event.BATCH_FAILED, Transition.to(Phase.GONE, Effect.FORGET, Effect.RECORD_DIED_BEFORE_ASKING));
    on(Phase.ASKED, Event.CLAIMED, Transition.to(Phase.HANDED));
    on(Phase.ASKED, Event.NO_WORK, Transition.to(Phase.IDLE));
    on(Phase.HANDED, Event.CONFIRMED, Transition.to(Phase.RUNNING));
    // reuse: after its run or an answer without work, a pilot asks again (its daemon decides whether it gets a job)
    on(Phase.REPORTED, Event.ASKED, Transition.to(Phase.ASKED));
    on(Phase.IDLE, Event.ASKED, Transition.to(Phase.ASKED));
    // a short run may end before its first heartbeat is in: its report is the first call with the job's token
    on(Phase.HANDED, Event.REPORTED, Transition.to(Phase.REPORTED));
    on(Phase.RUNNING, Event.REPORTED, Transition.to(Phase.REPORTED));
    // evicted before the cancel goes out, so that a report the cancel's signal brings on is refused
    on(Phase.HANDED, Event.EVICTED, Transition.to(Phase.EVICTING));
    on(Phase.RUNNING, Event.EVICTED, Transition.to(Phase.EVICTING));
    // a failed cancel leaves the run going; one not yet confirmed is taken as confirmed from then on (its end, if it never had
    // the job, is recorded as "pilot-ended", not "never-confirmed": the claim goes back all the same)
    on(Phase.EVICTING, Event.EVICT_FAILED, Transition.to(Phase.RUNNING));
    on(Phase.ADOPTING, Event.ADOPTED, Transition.to(Phase.RUNNING));
    on(Phase.ADOPTING_HANDED, Event.ADOPTED, Transition.to(Phase.HANDED));
    // the result was handed in and the daemon stopped before its journal said so: nothing to take back, nothing lost
    on(Phase.ADOPTING, Event.FOUND_REPORTED, Transition.to(Phase.REPORTED));
    on(Phase.ADOPTING_HANDED, Event.FOUND_REPORTED, Transition.to(Phase.REPORTED));
    // a second report of the same run: the coordination layer answers it (the result exists already)
    on(Phase.REPORTED, Event.REPORTED, Transition.to(Phase.REPORTED));
    // a report that arrives after the batch job was seen ending: the result is recorded all the same
    on(Phase.GONE, Event.REPORTED, Transition.to(Phase.GONE));
    for (Event ended : new Event[] {Event.BATCH_ENDED, Event.BATCH_FAILED}) {
      // an asking pilot holds no claim; the effect gives back one a journal of an earlier version kept before its CLAIMED
      on(Phase.ASKED, ended, Transition.to(Phase.GONE, Effect.FORGET, Effect.RELEASE_CLAIM));
      on(Phase.RUNNING, ended, Transition.to(Phase.GONE, Effect.FORGET, Effect.RELEASE_CLAIM));
      on(Phase.ADOPTING, ended, Transition.to(Phase.GONE, Effect.FORGET, Effect.RELEASE_CLAIM));
      on(Phase.HANDED, ended, Transition.to(Phase.GONE, Effect.FORGET, Effect.RELEASE_NEVER_CONFIRMED));
      on(Phase.ADOPTING_HANDED, ended, Transition.to(Phase.GONE, Effect.FORGET, Effect.RELEASE_NEVER_CONFIRMED));
      on(Phase.EVICTING, ended, Transition.to(Phase.GONE, Effect.FORGET, Effect.RELEASE_EVICTED));
      on(Phase.REPORTED, ended, Transition.to(Phase.GONE, Effect.FORGET));
      on(Phase.IDLE, ended, Transition.to(Phase.GONE, Effect.FORGET));
    }
  }

  private PilotLifecycle() {}

  private static void on(Phase from, Event event, Transition<Phase, Effect> t) {
    TABLE.add(from, event, t);
  }

  /** The transition {@code event} makes from {@code from}; empty when the event is out of order there. */
  public static Optional<Transition<Phase, Effect>> on(Phase from, Event event) {
    return TABLE.find(from, event);
  }

  /** How the API and metrics count a pilot: pending (not asked yet), running (holding a claim), done. */
  public static String countedAs(Phase phase) {
    return switch (phase) {
      case SUBMITTING, PENDING -> "pending";
      default -> holdsJob(phase) ? "running" : "done";
    };
  }

  /** Whether a pilot in {@code phase} holds a claim on a job: its run is under way, or the job was handed to it. */
  public static boolean holdsJob(Phase phase) {
    return HOLDING.contains(phase);
  }

  /**
   * The phase the journal writes for {@code phase}: the phases of its first version only, so that
   * the daemon of one release back reads it (with {@link #confirmed} beside it).
   */
  static Phase journaled(Phase phase) {
    return holdsJob(phase) ? Phase.RUNNING : phase;
  }

  /** Whether the journal writes a pilot in {@code phase} as having called with its job's token. */
  static boolean confirmed(Phase phase) {
    return holdsJob(phase) && phase != Phase.HANDED && phase != Phase.ADOPTING_HANDED;
  }

  /**
   * The phase a pilot journaled in {@code phase} is restored in: one that held a claim and had not
   * reported its run waits for the claim's adoption under this daemon's session (ADOPTING, or
   * ADOPTING_HANDED where it had not called with its job's token: {@code confirmed} false; absent
   * in records written before it was kept, and then taken as true); any other keeps its phase.
   */
  static Phase restored(Phase phase, boolean holdsClaim, boolean reported, Boolean confirmed) {
    if (!holdsClaim || reported || !(phase == Phase.ASKED || holdsJob(phase))) {
      return phase;
    }
    return (confirmed == null || confirmed) && phase != Phase.HANDED && phase != Phase.ADOPTING_HANDED ? Phase.ADOPTING : Phase.ADOPTING_HANDED;
  }
}
