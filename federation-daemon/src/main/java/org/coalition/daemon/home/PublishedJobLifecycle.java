package org.coalition.daemon.home;

import java.util.Optional;
import org.coalition.daemon.base.Transition;
import org.coalition.daemon.base.TransitionTable;

/**
 * The life of one of this site's users' opted-in jobs as the home side sees it, as a transition
 * table. A job is parked at home before it is published (never claimable while it can also start
 * here) and unparked whenever it is to run at home after all. Its state is one {@link
 * PublishedJob} record in {@link PublishedJobs}, which only this table moves.
 *
 * <pre>
 *   LOCAL --ready--> WAITING --park--> PARKING --published--> PUBLISHED --seen--> IN_FEDERATION --left/result--> DONE
 *     ^  \             |  \--held back--> HELD_BACK --park--^     |                 |
 *     |   '--cannot go (files, shape)--> KEPT                     '--withdrawn for room (unpark)--'--> LOCAL
 *     '-- not ready, gone from the local queue, park or publication failed (back to WAITING)
 * </pre>
 *
 * <p>What the federation's records say of a published job (claimed, by whom, finished) is not
 * copied here: the home reads it from the federation each round. What only the home knows is:
 * when it first saw the job ready (publish-after counts from then), whether a reason to keep it
 * was recorded, why it stays home for good, the spec it published, and whether the federation's
 * cache has shown the job since (only then can it have left it).
 */
public final class PublishedJobLifecycle {
  /** Where a job is. */
  public enum Phase {
    /** In the local queue only, and not followed (not ready, held by an administrator, or back home): no record. */
    LOCAL,
    /** Ready in the local queue; publish-after counts from when it was first seen so. */
    WAITING,
    /** Waiting, and a reason it is not published yet was recorded once (the send allowance used up, its script unreadable). */
    HELD_BACK,
    /** Stays home for good: its files or its shape cannot go (its user was told why). */
    KEPT,
    /** Its park is recorded and its hold being made; it is published next. */
    PARKING,
    /** Parked here and published; the federation's cache has not shown it yet. */
    PUBLISHED,
    /** Parked here and in the federation queue (claimed or not), as the cache has shown. */
    IN_FEDERATION,
    /** Finished with: replayed, dropped, withdrawn because its user removed it, or gone from the federation. */
    DONE
  }

  /** What happens to a job. */
  public enum Event {
    /** Seen ready in the local queue (not held, nothing it waits for). */
    READY,
    /** Not ready any more (held by an administrator, waits for a dependency), or gone from the local queue. */
    NOT_READY,
    /** Not published this round for a reason recorded once. */
    HELD_BACK,
    /** Its files or its shape cannot go: it runs here. */
    CANNOT_GO,
    /** Its park is to be recorded and its hold made. */
    PARK,
    /** The park could not be recorded, or the hold made: it stays waiting. */
    PARK_FAILED,
    /** Parked and published. */
    PUBLISHED,
    /** Parked, but the publication failed. */
    PUBLISH_FAILED,
    /** Shown by the federation's cache. */
    SEEN,
    /** Found in the federation when the daemon starts. */
    FOUND_PUBLISHED,
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
    /** Record the park in the park journal, then hold the job in the local queue. */
    PARK,
    /** Forget the park's record (its hold was never made). */
    FORGET_PARK,
    /** Let the job run here: release the hold, forget the park's record. */
    UNPARK,
    /** Stop following it. */
    FORGET,
    /** Keep how it ended for lookups ({@code coalition job}). */
    REMEMBER_RESULT
  }

  private static final TransitionTable<Phase, Event, Effect> TABLE = new TransitionTable<>(Phase.class, Event.class);

  static {
    on(Phase.LOCAL, Event.READY, Transition.to(Phase.WAITING));
    for (Phase waiting : new Phase[] {Phase.WAITING, Phase.HELD_BACK}) {
      on(waiting, Event.READY, Transition.to(waiting));
      on(waiting, Event.NOT_READY, Transition.to(Phase.LOCAL, Effect.FORGET));
      on(waiting, Event.HELD_BACK, Transition.to(Phase.HELD_BACK));
      on(waiting, Event.CANNOT_GO, Transition.to(Phase.KEPT));
      on(waiting, Event.PARK, Transition.to(Phase.PARKING, Effect.PARK));
    }
    on(Phase.KEPT, Event.NOT_READY, Transition.to(Phase.LOCAL, Effect.FORGET));
    on(Phase.PARKING, Event.PARK_FAILED, Transition.to(Phase.WAITING, Effect.FORGET_PARK));
    on(Phase.PARKING, Event.PUBLISHED, Transition.to(Phase.PUBLISHED));
    // the first round after a failed publication may publish it again at once: it waited long enough already
    on(Phase.PARKING, Event.PUBLISH_FAILED, Transition.to(Phase.WAITING, Effect.UNPARK));
    on(Phase.PUBLISHED, Event.SEEN, Transition.to(Phase.IN_FEDERATION));
    on(Phase.IN_FEDERATION, Event.SEEN, Transition.to(Phase.IN_FEDERATION));
    on(Phase.LOCAL, Event.FOUND_PUBLISHED, Transition.to(Phase.IN_FEDERATION));
    for (Phase local : new Phase[] {Phase.LOCAL, Phase.WAITING, Phase.HELD_BACK}) {
      on(local, Event.FOUND_PARKED, Transition.to(local, Effect.UNPARK));
      // a job in the federation that this daemon does not follow (its record lost) is withdrawn the same way
      on(local, Event.WITHDRAWN_FOR_ROOM, Transition.to(Phase.LOCAL, Effect.UNPARK, Effect.FORGET));
    }
    for (Phase published : new Phase[] {Phase.PUBLISHED, Phase.IN_FEDERATION}) {
      on(published, Event.WITHDRAWN_FOR_ROOM, Transition.to(Phase.LOCAL, Effect.UNPARK, Effect.FORGET));
      on(published, Event.WITHDRAWN_GONE, Transition.to(Phase.DONE, Effect.FORGET));
    }
    // only a job the cache has shown can have left it: one published a moment ago may not be in it yet
    on(Phase.IN_FEDERATION, Event.LEFT_FEDERATION, Transition.to(Phase.DONE, Effect.FORGET));
    for (Phase any : new Phase[] {Phase.LOCAL, Phase.WAITING, Phase.HELD_BACK, Phase.PUBLISHED, Phase.IN_FEDERATION}) {
      on(any, Event.RESULT_HANDLED, Transition.to(Phase.DONE, Effect.FORGET, Effect.REMEMBER_RESULT));
    }
  }

  private PublishedJobLifecycle() {}

  private static void on(Phase from, Event event, Transition<Phase, Effect> t) {
    TABLE.add(from, event, t);
  }

  /** The transition {@code event} makes from {@code from}; empty when the event is out of order there. */
  public static Optional<Transition<Phase, Effect>> on(Phase from, Event event) {
    return TABLE.find(from, event);
  }

  /** Whether a job in {@code phase} is published (in the federation queue, or on its way there). */
  public static boolean published(Phase phase) {
    return phase == Phase.PUBLISHED || phase == Phase.IN_FEDERATION;
  }
}
