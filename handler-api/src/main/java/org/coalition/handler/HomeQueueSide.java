package org.coalition.handler;

import java.util.List;
import java.util.Optional;

/**
 * A handler that is a home through a part of its own, present only when the site file makes the
 * system a home (HTCondor's and Grid Engine's {@code results:}): the {@link HomeQueue} calls go to
 * that part; without it, the system lists no jobs and refuses the rest with {@link #noHome}'s words.
 */
public interface HomeQueueSide extends HomeQueue {
  /** The home part, empty when the system only lends. */
  Optional<? extends HomeQueue> homeSide();

  /** Why a system without a home part refuses a home's call: what the site file lacks. */
  String noHome();

  private HomeQueue required() {
    return homeSide().orElseThrow(() -> new HandlerException(HandlerException.Category.REJECTED, noHome()));
  }

  @Override
  default List<HomeJob> federable() {
    return homeSide().map(HomeQueue::federable).orElse(List.of());
  }

  @Override
  default String payload(String jobId) {
    return required().payload(jobId);
  }

  @Override
  default void park(String jobId) {
    required().park(jobId);
  }

  @Override
  default void unpark(String jobId) {
    required().unpark(jobId);
  }

  @Override
  default void replay(String jobId, RemoteRun run) {
    required().replay(jobId, run);
  }

  @Override
  default void note(String jobId, String text) {
    required().note(jobId, text);
  }

  @Override
  default Optional<String> owner(String jobId) {
    return homeSide().flatMap(h -> h.owner(jobId));
  }
}
