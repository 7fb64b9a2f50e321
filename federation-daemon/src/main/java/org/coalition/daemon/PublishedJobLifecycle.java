package org.coalition.daemon;

import java.util.Optional;

/**
 * The life of one of this site's users' opted-in jobs as the home side sees it, as a transition
 * table. A job is parked at home before it is published (never claimable while it can also start
 * here) and unparked whenever it is to run at home after all.
 *
 * <pre>
 *   LOCAL --published--> PUBLISHED --result handled--> DONE
 *     ^                      |  \--gone at home, left the federation--> DONE
 *     '--withdrawn for room--'
 * </pre>
 */
public final class PublishedJobLifecycle {
  /** Where a job is. */
  public enum Phase {
    /** In the local queue only (waiting, kept home, or back home). */
    LOCAL,
    /** Parked here and in the federation queue (claimed or not). */
    PUBLISHED,
    /** Finished with: replayed, dropped, withdrawn because its user removed it, or gone from the federation. */
    DONE
  }

  /** What happens to a job. */
  public enum Event {
    /** Parked and published. */
    PUBLISHED,
    /** Found in the federation when the daemon starts. */
    FOUND_PUBLISHED,
    /** Parked, but the publication failed. */
    PUBLISH_FAILED,
    /** Found parked here but in the federation no more (a crash between park and publish, or a failed unpark). */
    FOUND_PARKED,
    /** Withdrawn before any claim because room appeared here. */
    WITHDRAWN_FOR_ROOM,
    /** Withdrawn before any claim because its user removed it from the local queue. */
    WITHDRAWN_GONE,
    /** No longer in the federation queue. */
    LEFT_FEDERATION,
    /** Its remote run came back and was replayed here, or dropped. */
    RESULT_HANDLED
  }

  /** What the home side does after a transition. */
  public enum Effect {
    /** Let the job run here: release the park. */
    UNPARK,
    /** Remember it as published. */
    TRACK,
    /** Stop tracking it. */
    FORGET,
    /** Keep how it ended for lookups ({@code coalition job}). */
    REMEMBER_RESULT
  }

  private static final TransitionTable<Phase, Event, Effect> TABLE = new TransitionTable<>(Phase.class, Event.class);

  static {
    on(Phase.LOCAL, Event.PUBLISHED, Transition.to(Phase.PUBLISHED, Effect.TRACK));
    on(Phase.LOCAL, Event.FOUND_PUBLISHED, Transition.to(Phase.PUBLISHED, Effect.TRACK));
    on(Phase.LOCAL, Event.PUBLISH_FAILED, Transition.to(Phase.LOCAL, Effect.UNPARK));
    on(Phase.LOCAL, Event.FOUND_PARKED, Transition.to(Phase.LOCAL, Effect.UNPARK));
    on(Phase.LOCAL, Event.RESULT_HANDLED, Transition.to(Phase.DONE, Effect.FORGET, Effect.REMEMBER_RESULT));
    // a job in the federation that this daemon does not track yet is withdrawn the same way
    on(Phase.LOCAL, Event.WITHDRAWN_FOR_ROOM, Transition.to(Phase.LOCAL, Effect.UNPARK, Effect.FORGET));
    on(Phase.PUBLISHED, Event.FOUND_PUBLISHED, Transition.to(Phase.PUBLISHED, Effect.TRACK));
    on(Phase.PUBLISHED, Event.WITHDRAWN_FOR_ROOM, Transition.to(Phase.LOCAL, Effect.UNPARK, Effect.FORGET));
    on(Phase.PUBLISHED, Event.WITHDRAWN_GONE, Transition.to(Phase.DONE, Effect.FORGET));
    on(Phase.PUBLISHED, Event.LEFT_FEDERATION, Transition.to(Phase.DONE, Effect.FORGET));
    on(Phase.PUBLISHED, Event.RESULT_HANDLED, Transition.to(Phase.DONE, Effect.FORGET, Effect.REMEMBER_RESULT));
  }

  private PublishedJobLifecycle() {}

  private static void on(Phase from, Event event, Transition<Phase, Effect> t) {
    TABLE.add(from, event, t);
  }

  /** The transition {@code event} makes from {@code from}; empty when the event is out of order there. */
  public static Optional<Transition<Phase, Effect>> on(Phase from, Event event) {
    return TABLE.find(from, event);
  }
}
