package org.coalition.slurm;

import java.util.Map;
import java.util.Set;

/**
 * One node's CPUs, memory, GRES and state.
 *
 * @param states Slurm's base state and flags in capitals ({@code IDLE}, {@code MIXED}, {@code DRAIN} ...)
 * @param memoryMb its {@code RealMemory} in MiB (0 when Slurm does not say)
 * @param gres its GRES counted by name, and by {@code name:type} for typed ones ({@link SlurmLayout#nodeGres})
 * @param gresUsed those of them allocated now, counted the same way
 * @param allocatedMemoryMb the memory its jobs hold now, in MiB ({@code AllocMem}; 0 when Slurm does not say)
 */
record SlurmNode(String name, Set<String> states, int cpus, int allocatedCpus, long memoryMb, Map<String, Integer> gres,
    Map<String, Integer> gresUsed, long allocatedMemoryMb) {
  /** States in which a node takes no new work: its cores are not counted as capacity. */
  private static final Set<String> UNUSABLE = Set.of("DOWN", "DRAIN", "DRAINING", "DRAINED", "FAIL", "FAILING", "FUTURE",
      "NOT_RESPONDING", "NO_RESPOND", "POWERED_DOWN", "POWER_DOWN", "POWERING_DOWN", "POWERING_UP", "INVALID", "UNKNOWN",
      "REBOOT_REQUESTED", "REBOOT_ISSUED", "MAINTENANCE", "RESERVED");

  SlurmNode {
    states = Set.copyOf(states);
    gres = Map.copyOf(gres);
    gresUsed = Map.copyOf(gresUsed);
  }

  /** A node whose allocated memory is not known (counted as all free). */
  SlurmNode(String name, Set<String> states, int cpus, int allocatedCpus, long memoryMb, Map<String, Integer> gres,
      Map<String, Integer> gresUsed) {
    this(name, states, cpus, allocatedCpus, memoryMb, gres, gresUsed, 0);
  }

  /** A node without GRES. */
  SlurmNode(String name, Set<String> states, int cpus, int allocatedCpus, long memoryMb) {
    this(name, states, cpus, allocatedCpus, memoryMb, Map.of(), Map.of());
  }

  /** Whether {@code mb} of its memory is free now; a node whose memory Slurm does not say has room. */
  boolean memoryFree(long mb) {
    return memoryMb == 0 || memoryMb - allocatedMemoryMb >= mb;
  }

  boolean usable() {
    for (String s : states) {
      if (UNUSABLE.contains(s)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the node would take work but for an advance reservation: a reserved node holds the
   * jobs its reservation admits (a contract's pilots, docs/decisions/0020), so it counts for what
   * the site could hold at all, though not as capacity now.
   */
  boolean usableInAReservation() {
    return states.stream().allMatch(s -> s.equals("RESERVED") || s.equals("MAINTENANCE") || !UNUSABLE.contains(s));
  }
}
