package org.coalition.slurm;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.RequestCost;

/**
 * One slurmrestd REST version, mapped from its generated client to the handler's types. Every
 * method throws {@link org.coalition.handler.HandlerException} with a category and the server's
 * message.
 */
interface SlurmRest {
  /** The REST version, e.g. {@code v0.0.42}. */
  String version();

  /** Requests made and response bytes received so far. */
  RequestCost cost();

  /** The Slurm release behind it, e.g. {@code 24.11.5}, from a ping. */
  String release();

  /**
   * Every job, or {@code null} when nothing changed since {@code since} (the {@code lastUpdate}
   * of an earlier answer; 0 for everything).
   */
  Snapshot<SlurmJob> jobs(long since);

  /** Each job's base state by id, in one small request; {@code null} when this version has no such call. */
  Map<String, String> jobStates(Collection<String> ids);

  /** One job, or empty when Slurm does not know it (any more). */
  default Optional<SlurmJob> job(String id) {
    return records(id).stream().filter(j -> j.id().equals(id)).findFirst();
  }

  /**
   * The records Slurm answers for job {@code id}: its own, and for an array's job id every record
   * of the array (its tasks split off, and the record of those not yet); none when Slurm does not
   * know it (any more).
   */
  List<SlurmJob> records(String id);

  /** Every node, or {@code null} when nothing changed since {@code since}. */
  Snapshot<SlurmNode> nodes(long since);

  /** Submits a batch job running {@code script} with the shape of {@code spec}, as {@code spec.account()}. */
  String submit(PilotSpec spec, String script);

  /** Holds ({@code true}) or releases a pending job, as {@code user}. */
  void hold(String id, boolean hold, String user);

  /**
   * Releases a held job {@code points} of priority ahead of the jobs waiting here (Slurm's nice,
   * negative: an operator's to give), in one update, as {@code user}. In the release's own update:
   * a nice set while the job is held is gone once it is released (seen on 22.05).
   */
  void releaseAhead(String id, int points, String user);

  /** Sets a job's comment, as {@code user}. */
  void comment(String id, String comment, String user);

  /**
   * Makes a held job as small as a replay needs: one node, one task of one core, {@code minutes}
   * ({@link #replayMinutes}) and {@link #REPLAY_MEMORY_MB} MiB, as {@code user}. A replay only
   * writes the remote run's output and files and ends as it ended; it need not wait for the cores
   * the job asked for (issue #24, "replay in a second").
   */
  void shrink(String id, int minutes, String user);

  /** The time limit of a replay that puts {@code fileBytes} of files in place: a minute, and one more per 512 MiB. */
  static int replayMinutes(long fileBytes) {
    return REPLAY_MINUTES + (int) Math.min(1000, (fileBytes + (512L << 20) - 1) / (512L << 20));
  }

  /** The time limit of a shrunk job: Slurm counts in whole minutes, and a replayed timeout waits for it. */
  int REPLAY_MINUTES = 1;

  /** The memory of a shrunk job: enough for coalition-replay (a shell and cat) under a memory cgroup. */
  int REPLAY_MEMORY_MB = 64;

  /** Cancels a job, as {@code user}; a job already gone or ended is not an error. */
  void cancel(String id, String user);

  /**
   * What a poll returned.
   *
   * @param lastUpdate what to pass as {@code since} next time
   */
  record Snapshot<T>(List<T> items, long lastUpdate) {
    public Snapshot {
      items = List.copyOf(items);
    }
  }
}
