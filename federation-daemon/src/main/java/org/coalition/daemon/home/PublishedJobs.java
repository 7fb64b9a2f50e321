package org.coalition.daemon.home;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import org.coalition.daemon.base.Transition;
import org.coalition.daemon.home.PublishedJobLifecycle.Effect;
import org.coalition.daemon.home.PublishedJobLifecycle.Event;
import org.coalition.daemon.home.PublishedJobLifecycle.Phase;

/**
 * This site's opted-in jobs the home side follows, each one {@link PublishedJob} record, moved by
 * {@link PublishedJobLifecycle}'s table and by nothing else: the registry of the home side, as
 * {@link org.coalition.daemon.executor.Pilots} is the executor side's. A job in phase LOCAL (or DONE) has no record. Moved by the
 * broker's tick; read by the API's threads too, each read one whole record.
 */
final class PublishedJobs {
  private final Map<String, PublishedJob> byId = new ConcurrentHashMap<>();

  /** Job {@code id} as the home side follows it (phase LOCAL when it does not). */
  PublishedJob get(String id) {
    return byId.getOrDefault(id, PublishedJob.local(id));
  }

  Phase phase(String id) {
    return get(id).phase();
  }

  /**
   * Moves job {@code id} on {@code event}, {@code change} filling in the data the event brings
   * (applied after the phase is set); returns the effects to carry out.
   *
   * @throws IllegalStateException when the event is out of order in the job's phase
   */
  List<Effect> fire(String id, Event event, UnaryOperator<PublishedJob> change) {
    PublishedJob now = get(id);
    Transition<Phase, Effect> t = PublishedJobLifecycle.on(now.phase(), event).orElseThrow(() -> new IllegalStateException(
        "job " + id + " is " + now.phase() + ": " + event + " is out of order"));
    PublishedJob next = change.apply(now.with(t.next()));
    if (next.phase() == Phase.LOCAL || next.phase() == Phase.DONE) {
      byId.remove(id);
    } else {
      byId.put(id, next);
    }
    return t.effects();
  }

  /** {@link #fire} with nothing more to fill in. */
  List<Effect> fire(String id, Event event) {
    return fire(id, event, UnaryOperator.identity());
  }

  /** The records of published jobs (in the federation queue, or on their way there). */
  List<PublishedJob> published() {
    return byId.values().stream().filter(j -> PublishedJobLifecycle.published(j.phase())).toList();
  }

  /** All records. */
  List<PublishedJob> all() {
    return List.copyOf(byId.values());
  }

  /** Why job {@code id} stays home, if it does for good. */
  Optional<String> whyHome(String id) {
    PublishedJob j = get(id);
    return j.phase() == Phase.KEPT ? Optional.ofNullable(j.reason()) : Optional.empty();
  }
}
