package org.coalition.daemon;

import java.util.Optional;

/**
 * The life of a pilot this site submitted, as a transition table: which event moves it from which
 * phase to which, and what the executor side must then do. A pilot runs one job at a time (late
 * binding: it is bound to a job when it asks for work, not when it is submitted); where the site
 * reuses pilots ({@link PilotReuse}) it asks again after each run, from REPORTED or IDLE.
 *
 * <pre>
 *   SUBMITTING --submitted--> PENDING --asked--> ASKED --claimed--> RUNNING --reported--> REPORTED
 *        |  '--------------asked (before the answer)--^  '--no work--> IDLE
 *   submit failed          pending too long,
 *        v                 batch job ended            (every phase ends in GONE when its batch job ends)
 *      GONE
 * </pre>
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
    /** Holds a claim on a job and runs it. */
    RUNNING,
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
    NO_WORK,
    REPORTED,
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
    /** Record that the pilot died before asking for work (usually a broken {@code pilots.command}). */
    RECORD_DIED_BEFORE_ASKING,
    /** Record that the pilot was cancelled after waiting too long. */
    RECORD_PENDING_TOO_LONG
  }

  private static final TransitionTable<Phase, Event, Effect> TABLE = new TransitionTable<>(Phase.class, Event.class);

  static {
    on(Phase.SUBMITTING, Event.SUBMITTED, Transition.to(Phase.PENDING));
    on(Phase.SUBMITTING, Event.SUBMIT_FAILED, Transition.to(Phase.GONE, Effect.FORGET));
    // A pilot may start, and ask, before the batch system's answer to its submission is back (the
    // local system starts it inside submit): the asking counts, the late answer changes nothing.
    on(Phase.SUBMITTING, Event.ASKED, Transition.to(Phase.ASKED));
    for (Phase asked : new Phase[] {Phase.ASKED, Phase.RUNNING, Phase.REPORTED, Phase.IDLE}) {
      on(asked, Event.SUBMITTED, Transition.to(asked));
    }
    on(Phase.PENDING, Event.ASKED, Transition.to(Phase.ASKED));
    on(Phase.PENDING, Event.PENDING_TOO_LONG, Transition.to(Phase.GONE, Effect.CANCEL_BATCH_JOB, Effect.FORGET,
        Effect.RECORD_PENDING_TOO_LONG));
    on(Phase.PENDING, Event.BATCH_ENDED, Transition.to(Phase.GONE, Effect.FORGET));
    on(Phase.PENDING, Event.BATCH_FAILED, Transition.to(Phase.GONE, Effect.FORGET, Effect.RECORD_DIED_BEFORE_ASKING));
    on(Phase.ASKED, Event.CLAIMED, Transition.to(Phase.RUNNING));
    on(Phase.ASKED, Event.NO_WORK, Transition.to(Phase.IDLE));
    // reuse: after its run or an answer without work, a pilot asks again (its daemon decides whether it gets a job)
    on(Phase.REPORTED, Event.ASKED, Transition.to(Phase.ASKED));
    on(Phase.IDLE, Event.ASKED, Transition.to(Phase.ASKED));
    on(Phase.RUNNING, Event.REPORTED, Transition.to(Phase.REPORTED));
    on(Phase.RUNNING, Event.BATCH_ENDED, Transition.to(Phase.GONE, Effect.FORGET, Effect.RELEASE_CLAIM));
    on(Phase.RUNNING, Event.BATCH_FAILED, Transition.to(Phase.GONE, Effect.FORGET, Effect.RELEASE_CLAIM));
    // a second report of the same run: the coordination layer answers it (the result exists already)
    on(Phase.REPORTED, Event.REPORTED, Transition.to(Phase.REPORTED));
    // a report that arrives after the batch job was seen ending: the result is recorded all the same
    on(Phase.GONE, Event.REPORTED, Transition.to(Phase.GONE));
    // a pilot that asked may hold a claim (one a journal of an earlier version kept before its CLAIMED):
    // give it back if the pilot dies
    on(Phase.ASKED, Event.BATCH_ENDED, Transition.to(Phase.GONE, Effect.FORGET, Effect.RELEASE_CLAIM));
    on(Phase.ASKED, Event.BATCH_FAILED, Transition.to(Phase.GONE, Effect.FORGET, Effect.RELEASE_CLAIM));
    for (Phase ended : new Phase[] {Phase.REPORTED, Phase.IDLE}) {
      on(ended, Event.BATCH_ENDED, Transition.to(Phase.GONE, Effect.FORGET));
      on(ended, Event.BATCH_FAILED, Transition.to(Phase.GONE, Effect.FORGET));
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
      case RUNNING -> "running";
      default -> "done";
    };
  }
}
