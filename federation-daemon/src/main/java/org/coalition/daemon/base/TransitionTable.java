package org.coalition.daemon.base;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * A state machine's table: for each state and event, the {@link Transition} it makes, if the
 * event is allowed there. Shared by {@link org.coalition.daemon.executor.PilotLifecycle} and {@link org.coalition.daemon.home.PublishedJobLifecycle}.
 *
 * @param <S> the states
 * @param <V> the events
 * @param <E> the side effects
 */
public final class TransitionTable<S extends Enum<S>, V extends Enum<V>, E> {
  private final Class<V> events;
  private final Map<S, Map<V, Transition<S, E>>> table;

  public TransitionTable(Class<S> states, Class<V> events) {
    this.events = events;
    this.table = new EnumMap<>(states);
  }

  /** Allows {@code event} in {@code from}, making {@code t}. */
  public void add(S from, V event, Transition<S, E> t) {
    table.computeIfAbsent(from, k -> new EnumMap<>(events)).put(event, t);
  }

  /** The transition {@code event} makes from {@code from}; empty when the event is out of order there. */
  public Optional<Transition<S, E>> find(S from, V event) {
    return Optional.ofNullable(table.getOrDefault(from, Map.of()).get(event));
  }
}
