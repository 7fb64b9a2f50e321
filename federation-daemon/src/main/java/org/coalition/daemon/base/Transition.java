package org.coalition.daemon.base;

import java.util.List;

/**
 * What an event does to a state machine: the state it moves to and the side effects the caller
 * carries out, as data (the machines themselves do no I/O, so a table test covers them).
 *
 * @param <S> the machine's states
 * @param <E> its side effects
 */
public record Transition<S, E>(S next, List<E> effects) {
  public Transition {
    effects = List.copyOf(effects);
  }

  @SafeVarargs
  @SuppressWarnings("varargs") // List.of copies the array; it never escapes
  public static <S, E> Transition<S, E> to(S next, E... effects) {
    return new Transition<>(next, List.of(effects));
  }
}
