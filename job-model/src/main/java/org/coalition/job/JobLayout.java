package org.coalition.job;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * How a job's cores are laid out (issue #24, "the whole request"): on how many nodes, in how many
 * tasks, and the generic resources it needs on each node, counted (Slurm's count-only GRES:
 * {@code gpu} 2, {@code gpu:a100} 1). A peer writes it, so it is bounded hard: a node count and a
 * task count no cluster exceeds, a handful of GRES with names of Slurm's syntax and positive counts.
 *
 * @param nodes the nodes it runs on, at least 1
 * @param tasks its tasks ({@code srun}'s default count inside it), at least one per node
 * @param gres each generic resource it needs on every node, by name ({@code gpu} or {@code gpu:TYPE}), with its count
 */
public record JobLayout(int nodes, int tasks, Map<String, Integer> gres) {
  /** One node, one task, no GRES: what every job was before layouts travelled. */
  public static final JobLayout ONE = new JobLayout(1, 1, Map.of());

  public static final int MAX_NODES = 1 << 16;
  public static final int MAX_TASKS = 1 << 20;
  public static final int MAX_GRES = 8;
  public static final int MAX_GRES_COUNT = 1 << 20;
  /** A GRES name as Slurm writes it, with an optional type: {@code gpu}, {@code gpu:a100}, {@code mps}. */
  private static final Pattern GRES_NAME = Pattern.compile("[a-z][a-z0-9_]{0,31}(:[A-Za-z0-9_.-]{1,32})?");

  public JobLayout {
    if (nodes < 1 || nodes > MAX_NODES) {
      throw new IllegalArgumentException("nodes must be in [1, " + MAX_NODES + "], was " + nodes);
    }
    if (tasks < nodes || tasks > MAX_TASKS) {
      throw new IllegalArgumentException("tasks must be in [nodes (" + nodes + "), " + MAX_TASKS + "], was " + tasks);
    }
    gres = checkGres(gres);
  }

  /** One node with {@code gres} on it, one task. */
  public static JobLayout oneNode(Map<String, Integer> gres) {
    return new JobLayout(1, 1, gres);
  }

  /** Whether it is {@link #ONE}. */
  public boolean one() {
    return equals(ONE);
  }

  /** Each node's share of {@code cores}, rounded up: what a node must have for the job to fit on it. */
  public int coresPerNode(int cores) {
    return (cores + nodes - 1) / nodes;
  }

  /** The GPUs it asks for on each node by count alone ({@code gpu:N}, no type); 0 for none. */
  public int gpus() {
    return gres.getOrDefault("gpu", 0);
  }

  /**
   * Whether one slot or pod of one task can hold it: one node, one task, and no GRES but GPUs by
   * count ({@link #gpus}), what HTCondor's {@code request_GPUs} and a pod's GPU limit can ask.
   */
  public boolean oneTaskOfGpusByCount() {
    return nodes == 1 && tasks == 1 && gres.keySet().stream().allMatch("gpu"::equals);
  }

  /** Whether its cores alone say where it fits: one node, no GRES (its tasks share the node's cores). */
  public boolean coresAlone() {
    return nodes == 1 && gres.isEmpty();
  }

  /** As people write it: {@code 2 nodes, 4 tasks, gpu:1 per node}. */
  @Override
  public String toString() {
    StringBuilder s = new StringBuilder().append(nodes).append(nodes == 1 ? " node, " : " nodes, ").append(tasks).append(tasks == 1 ? " task" : " tasks");
    if (!gres.isEmpty()) {
      s.append(", ");
      gres.forEach((name, count) -> s.append(name).append(':').append(count).append(' '));
      s.append("per node");
    }
    return s.toString();
  }

  private static Map<String, Integer> checkGres(Map<String, Integer> gres) {
    if (gres == null || gres.isEmpty()) {
      return Map.of();
    }
    if (gres.size() > MAX_GRES) {
      throw new IllegalArgumentException(gres.size() + " generic resources, at most " + MAX_GRES);
    }
    Map<String, Integer> sorted = new TreeMap<>();
    gres.forEach((name, count) -> {
      if (name == null || !GRES_NAME.matcher(name).matches()) {
        String shown = name == null ? "null" : name.length() <= 40 ? name : name.substring(0, 40) + "...";
        throw new IllegalArgumentException("generic resource '" + shown + "' is not a GRES name (gpu, gpu:TYPE)");
      }
      if (count == null || count < 1 || count > MAX_GRES_COUNT) {
        throw new IllegalArgumentException("generic resource " + name + ": count must be in [1, " + MAX_GRES_COUNT + "], was " + count);
      }
      sorted.put(name, count);
    });
    return Collections.unmodifiableMap(sorted);
  }
}
