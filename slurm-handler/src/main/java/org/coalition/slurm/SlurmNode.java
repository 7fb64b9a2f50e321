package org.coalition.slurm;

import java.util.Set;

/**
 * One node's CPUs, memory and state.
 *
 * @param states Slurm's base state and flags in capitals ({@code IDLE}, {@code MIXED}, {@code DRAIN} ...)
 * @param memoryMb its {@code RealMemory} in MiB (0 when Slurm does not say)
 */
record SlurmNode(String name, Set<String> states, int cpus, int allocatedCpus, long memoryMb) {
  /** States in which a node takes no new work: its cores are not counted as capacity. */
  private static final Set<String> UNUSABLE = Set.of("DOWN", "DRAIN", "DRAINING", "DRAINED", "FAIL", "FAILING", "FUTURE",
      "NOT_RESPONDING", "NO_RESPOND", "POWERED_DOWN", "POWER_DOWN", "POWERING_DOWN", "POWERING_UP", "INVALID", "UNKNOWN",
      "REBOOT_REQUESTED", "REBOOT_ISSUED", "MAINTENANCE", "RESERVED");

  SlurmNode {
    states = Set.copyOf(states);
  }

  boolean usable() {
    for (String s : states) {
      if (UNUSABLE.contains(s)) {
        return false;
      }
    }
    return true;
  }
}
