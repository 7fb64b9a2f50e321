package org.coalition.handler;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import org.coalition.job.JobLayout;

/**
 * What the daemon needs from one local batch system: its load, and pilot jobs it can submit,
 * hold, release, cancel and follow. Implementations: {@code slurm-handler} (slurmrestd),
 * {@code condor-handler}, {@code k8s-handler}, and Grid Engine over {@code drmaa-bridge}.
 *
 * <p>Every method throws {@link HandlerException}; its {@link HandlerException.Category} says
 * whether a retry is safe. Implementations are thread-safe.
 */
public interface ResourceHandler extends AutoCloseable {
  /** The batch system and the protocol version in use, e.g. {@code "slurm 24.11.1 (slurmrestd v0.0.42)"}. */
  String describe();

  /** Queue length and reservation ratio now, at a bounded cost (see {@link QueueObservation#cost()}). */
  QueueObservation observe();

  /**
   * Whether the system's usable nodes, as of the last {@link #observe()}, are big enough for a
   * pilot of {@code cores} and {@code memoryMb} per node (0: the site's default) laid out as
   * {@code layout} at all, busy or not: a job they could never hold is not claimed here. By default
   * (a system that does not say) true for a job of one node without GRES and false otherwise: only
   * a system that can ask for several nodes or for GRES, and says it has them, is offered such jobs.
   */
  default boolean canHold(int cores, long memoryMb, JobLayout layout) {
    return layout.coresAlone();
  }

  /**
   * The batch system's escrow for capacity contracts, as this site's configuration grants it
   * (Slurm's {@code scontrol} with an operator's rights, say); empty where it has none, and then
   * the site sells no capacity ahead.
   */
  default Optional<Escrow> escrow() {
    return Optional.empty();
  }

  /** Submits a pilot job with the shape of {@code spec}; held first when {@code spec.held()}. */
  PilotHandle submit(PilotSpec spec);

  /** Keeps a pending pilot from starting. */
  void hold(PilotHandle pilot);

  /** Lets a held pilot start. */
  void release(PilotHandle pilot);

  /** Cancels a pilot, pending or running; a pilot already gone is not an error. */
  void cancel(PilotHandle pilot);

  /** The state of one pilot. */
  PilotStatus status(PilotHandle pilot);

  /** The states of several pilots, in as few requests as the batch system allows; unknown ones map to {@link PilotState#UNKNOWN}. */
  Map<PilotHandle, PilotStatus> statuses(Collection<PilotHandle> pilots);

  @Override
  void close();
}
