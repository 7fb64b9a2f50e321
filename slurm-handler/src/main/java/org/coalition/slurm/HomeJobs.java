package org.coalition.slurm;

import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.coalition.handler.HomeJob;

/**
 * The opted-in jobs of a site's users as the daemon sees them, from Slurm's job records: a job
 * is one {@link HomeJob}, and so is each task of an array ({@code 276_5}, whichever record holds
 * it: a pending array is one record for its tasks not split off yet, {@link SlurmArray}).
 */
final class HomeJobs {
  /** Reasons of a pending job that waits for room alone (Slurm's reason codes; None: not yet considered). */
  private static final Set<String> WAITING_FOR_ROOM = Set.of("None", "Priority", "Resources", "");

  /** By job id, then task: {@code 9 < 10 < 10_2 < 10_11 < 11}. */
  static final Comparator<HomeJob> BY_ID = Comparator.comparingLong((HomeJob j) -> number(j.id(), 0))
      .thenComparingLong(j -> number(j.id(), 1));

  private HomeJobs() {}

  /**
   * The pending opted-in jobs among {@code records}, a task split off in a record of its own
   * counted once (a record of the array's other tasks read before the split may still list it).
   *
   * @param replaying whether a record (by job id) was released to replay a run made elsewhere: it waits for a slot, not for room
   */
  static List<HomeJob> of(Collection<SlurmJob> records, Predicate<String> replaying) {
    Set<String> split = new HashSet<>();
    for (SlurmJob r : records) {
      if (r.array().any() && r.array().taskId() >= 0) {
        split.add(r.array().name(r.array().taskId()));
      }
    }
    Map<String, HomeJob> out = new LinkedHashMap<>();
    for (SlurmJob r : records) {
      if (!r.federable() || !r.pending()) {
        continue;
      }
      if (!r.array().any()) {
        out.put(r.id(), homeJob(r, r.id(), Map.of(), replaying));
        continue;
      }
      boolean own = r.array().taskId() >= 0;
      for (long task : r.array().tasks()) {
        String name = r.array().name(task);
        if (own || !split.contains(name)) {
          out.put(name, homeJob(r, name, r.array().environment(task), replaying));
        }
      }
    }
    return out.values().stream().sorted(BY_ID).toList();
  }

  private static HomeJob homeJob(SlurmJob r, String name, Map<String, String> environment, Predicate<String> replaying) {
    return HomeJob.builder(name, r.user()).partition(r.partition()).cpus(r.cpus()).memoryMb(r.memoryMb()).timeLimitSeconds(r.timeLimitSeconds())
        .held("JobHeldAdmin".equals(r.reason())).ready(WAITING_FOR_ROOM.contains(r.reason()) && !replaying.test(r.id())).workDir(r.workDir())
        .staysHome(r.staysHome()).environment(environment).layout(r.layout()).build();
  }

  /** Part {@code i} of an id ({@code 276} and {@code 5} of {@code 276_5}; 0 when it has none), for ordering only. */
  private static long number(String id, int i) {
    String[] parts = id.split("_", 2);
    try {
      return i < parts.length ? Long.parseLong(parts[i]) : -1;
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
  }
}
