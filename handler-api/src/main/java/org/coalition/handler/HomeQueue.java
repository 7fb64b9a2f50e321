package org.coalition.handler;

import java.util.List;
import java.util.Optional;

/**
 * The home side of a batch system: its users' opted-in jobs, which the daemon publishes to the
 * federation, parks while they run elsewhere, and releases with the remote run to replay (so the
 * user's own job stays the handle: {@code squeue}, {@code sacct} and dependencies keep working).
 * Implemented by handlers whose users submit through the local batch system (Slurm, the demo's
 * local site); every method throws {@link HandlerException}.
 */
public interface HomeQueue {
  /** Opted-in jobs waiting in the local queue, parked ones included, as of the last observation. */
  List<HomeJob> federable();

  /** What a remote site runs for this job: its script, as the user submitted it. */
  String payload(String jobId);

  /** Keeps the job from starting here while it may run elsewhere. */
  void park(String jobId);

  /** Lets a parked job run here after all (its publication was withdrawn before any claim). */
  void unpark(String jobId);

  /** Releases a parked job with the run it made elsewhere: it ends here as that run ended, with its output. */
  void replay(String jobId, RemoteRun run);

  /**
   * Tells the user of a parked job where it is ({@code text}: "running at south since ..."), where
   * the user looks at their jobs (Slurm: the job's comment, beside the user's own). Nothing by
   * default: a batch system without such a field says nothing. {@link #unpark} takes the note away.
   */
  default void note(String jobId, String text) {}

  /**
   * The account that owns job {@code jobId} (any state), as the batch system says, while it
   * knows the job: who may read what the federation did with it. Empty when the system does not
   * know it (any more), or says nothing of owners (the default).
   */
  default Optional<String> owner(String jobId) {
    return Optional.empty();
  }

  /**
   * How many calls about different jobs the daemon may make at once ({@link #payload},
   * {@link #note}, {@link #replay}, from as many threads): 1 by default, one after another. A
   * handler whose calls are safe to make at once, and whose batch system serves them at once
   * (slurmrestd's threads), says more, and a burst of jobs goes out and comes home that much sooner.
   */
  default int concurrentCalls() {
    return 1;
  }

  /**
   * Where at home the job would run, and the cores free there in {@code obs}: the whole site by
   * default. A site of several batch systems answers for the job's own system, so that a job
   * waiting on a full cluster is published even while another cluster of the site has room. A
   * system that knows its nodes says whether what the job asks beyond cores (its GRES, several
   * nodes) is free now: a job of a GPU waits for a GPU, not for cores.
   */
  default Room room(HomeJob job, QueueObservation obs) {
    return new Room("", obs.totalCores() - obs.allocatedCores());
  }

  /**
   * A part of the site (empty: all of it), its free cores, and whether what a job asks beyond
   * cores is free there now ({@code shapeFree}; true for a job that asks for cores alone).
   */
  record Room(String system, int freeCores, boolean shapeFree) {
    public Room(String system, int freeCores) {
      this(system, freeCores, true);
    }
  }
}
