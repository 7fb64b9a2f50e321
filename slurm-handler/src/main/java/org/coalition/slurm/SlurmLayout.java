package org.coalition.slurm;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import org.coalition.job.JobLayout;

/**
 * A Slurm job's nodes, tasks and GRES as slurmrestd reports them, read into the {@link JobLayout}
 * a pilot elsewhere asks for, or why they cannot travel (docs/jobs.md, "Nodes, tasks and GPUs"). GRES
 * travel per node ({@code --gres}, and {@code --gpus} on one node, where per job and per node are
 * the same); per task, per socket, or per job over several nodes they stay home, as does anything
 * else in a TRES request but CPUs.
 *
 * @param layout what travels ({@link JobLayout#ONE} when the job stays home)
 * @param staysHome why it cannot travel, or empty
 */
record SlurmLayout(JobLayout layout, String staysHome) {
  /**
   * Reads a job's request.
   *
   * @param nodes its node count (0 or less: not known, one)
   * @param tasks its task count (0 or less: not known; fewer than its nodes: one per node, as Slurm starts them)
   * @param cpus its CPUs
   * @param perNode its {@code tres_per_node} ({@code gres:gpu:1} in 22.05, {@code gres/gpu:1} in 24.11), or null
   * @param perJob its {@code tres_per_job} ({@code --gpus}), or null
   * @param perTask its {@code tres_per_task}, or null
   * @param perSocket its {@code tres_per_socket}, or null
   */
  static SlurmLayout of(long nodes, long tasks, int cpus, String perNode, String perJob, String perTask, String perSocket) {
    int n = (int) Math.max(1, Math.min(nodes, Integer.MAX_VALUE));
    int t = (int) Math.max(n, Math.min(tasks, Integer.MAX_VALUE));
    Map<String, Integer> gres = new HashMap<>();
    String why = add(gres, perNode, "");
    if (why.isEmpty()) {
      why = n == 1 ? add(gres, perJob, "") : add(gres, perJob, "for the whole job over " + n + " nodes; ask for it per node (--gres) to");
    }
    if (why.isEmpty()) {
      why = add(gres, perTask, "per task; ask for it per node (--gres) to");
    }
    if (why.isEmpty()) {
      why = add(gres, perSocket, "per socket; ask for it per node (--gres) to");
    }
    if (why.isEmpty() && (t > cpus || cpus % t != 0)) {
      why = "its " + t + " tasks do not share its " + cpus + " CPUs evenly, which a pilot elsewhere cannot ask for";
    }
    if (!why.isEmpty()) {
      return new SlurmLayout(JobLayout.ONE, why);
    }
    try {
      return new SlurmLayout(new JobLayout(n, t, gres), "");
    } catch (IllegalArgumentException e) {
      return new SlurmLayout(JobLayout.ONE, "its request cannot travel: " + e.getMessage());
    }
  }

  /**
   * Adds the GRES of one TRES request to {@code gres}; returns why it cannot travel (empty when it
   * can): {@code how} non-empty says the request's kind keeps any GRES in it home.
   */
  private static String add(Map<String, Integer> gres, String tres, String how) {
    for (String item : tres == null ? new String[0] : tres.split(",")) {
      String s = item.strip().replace('=', ':'); // 24.11 writes a count per task as gres/gpu=1
      if (s.isEmpty() || s.matches("cpu[:=].*")) {
        continue;
      }
      if (!s.startsWith("gres:") && !s.startsWith("gres/")) {
        return "it asks for " + s + ", which runs elsewhere do not carry";
      }
      if (!how.isEmpty()) {
        return "it asks for " + s.substring(5) + " " + how + " run elsewhere";
      }
      String[] parts = s.substring(5).split(":");
      int count = 1;
      int named = parts.length;
      if (parts.length > 1 && parts[parts.length - 1].matches("[0-9]{1,9}")) {
        count = Integer.parseInt(parts[parts.length - 1]);
        named--;
      }
      if (named > 2 || count < 1) {
        return "it asks for " + s + ", which runs elsewhere do not carry";
      }
      gres.merge(named == 1 ? parts[0] : parts[0] + ":" + parts[1], count, Integer::sum);
    }
    return "";
  }

  /**
   * A node's GRES from its {@code gres} field ({@code gpu:1}, {@code gpu:a100:2(S:0-1)},
   * {@code gpu:2,mps:100}; {@code (null)} or empty for none): each by its name, and a typed one by
   * {@code name:type} as well, so that a request for either finds it.
   */
  static Map<String, Integer> nodeGres(String field) {
    Map<String, Integer> out = new HashMap<>();
    if (field == null) {
      return out;
    }
    for (String item : field.split(",(?![^(]*\\))")) {
      String s = item.replaceAll("\\(.*\\)", "").strip();
      String[] parts = s.split(":");
      if (s.isEmpty() || s.equals("null") || parts.length < 2 || !parts[parts.length - 1].matches("[0-9]{1,9}")) {
        continue;
      }
      int count = Integer.parseInt(parts[parts.length - 1]);
      out.merge(parts[0], count, Integer::sum);
      if (parts.length == 3) {
        out.merge(parts[0] + ":" + parts[1], count, Integer::sum);
      }
    }
    return out;
  }

  /**
   * Whether as many usable nodes as {@code layout} asks for each have its share of {@code cores},
   * {@code memoryMb} of RealMemory (a node whose memory Slurm does not say counts as big enough)
   * and every GRES it asks for, counted: busy or not, reserved or not (a reservation's own pilots
   * run there, {@link SlurmNode#usableInAReservation}).
   */
  static boolean canHold(List<SlurmNode> nodes, int cores, long memoryMb, JobLayout layout) {
    return enough(nodes, layout, n -> n.usableInAReservation() && n.cpus() >= layout.coresPerNode(cores)
        && (n.memoryMb() == 0 || n.memoryMb() >= memoryMb), SlurmNode::gres);
  }

  /**
   * Whether as many usable nodes as {@code layout} asks for each have its share of {@code cores},
   * {@code memoryMb} (the memory it asks for on each node) and every GRES it asks for free now.
   */
  static boolean hasRoom(List<SlurmNode> nodes, int cores, long memoryMb, JobLayout layout) {
    return enough(nodes, layout, n -> n.usable() && n.cpus() - n.allocatedCpus() >= layout.coresPerNode(cores) && n.memoryFree(memoryMb), n -> {
      Map<String, Integer> free = new HashMap<>(n.gres());
      n.gresUsed().forEach((name, used) -> free.merge(name, -used, Integer::sum));
      return free;
    });
  }

  /** Whether at least {@code layout.nodes()} nodes pass {@code test} and have {@code layout}'s GRES in {@code gres}. */
  private static boolean enough(List<SlurmNode> nodes, JobLayout layout, Predicate<SlurmNode> test, Function<SlurmNode, Map<String, Integer>> gres) {
    return nodes.stream().filter(n -> test.test(n)
        && layout.gres().entrySet().stream().allMatch(w -> gres.apply(n).getOrDefault(w.getKey(), 0) >= w.getValue()))
        .count() >= layout.nodes();
  }
}
