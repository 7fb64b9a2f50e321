package org.coalition.coordination;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The few environment variables a job's run gets from its home's batch system and that a run
 * elsewhere must see the same (issue #24, "Arrays"): an array task's numbers, as Slurm
 * ({@code SLURM_ARRAY_TASK_ID} ...) or Grid Engine ({@code SGE_TASK_ID} ...) names them. A peer
 * writes them, so they are bounded hard: those names only, decimal numbers only, a handful.
 */
public final class JobEnvironment {
  /** Most variables a job carries (Slurm sets six for an array task). */
  public static final int MAX_VARIABLES = 8;
  /** The names a job may carry: its array task's numbers, nothing that changes how a program runs (no PATH, no LD_*). */
  private static final Pattern NAME = Pattern.compile("(SLURM_ARRAY_|SGE_TASK_)[A-Z]{1,8}(_[A-Z]{1,8})?");
  /** A number: what an array task's variables hold. */
  private static final Pattern VALUE = Pattern.compile("[0-9]{1,19}");

  private JobEnvironment() {}

  /**
   * {@code variables} checked and copied, in name order.
   *
   * @throws IllegalArgumentException naming the job and the first variable out of bounds
   */
  public static Map<String, String> check(String jobId, Map<String, String> variables) {
    if (variables == null || variables.isEmpty()) {
      return Map.of();
    }
    if (variables.size() > MAX_VARIABLES) {
      throw new IllegalArgumentException("job " + jobId + ": " + variables.size() + " environment variables, at most " + MAX_VARIABLES);
    }
    Map<String, String> sorted = new TreeMap<>();
    variables.forEach((name, value) -> {
      if (name == null || !NAME.matcher(name).matches()) {
        throw new IllegalArgumentException("job " + jobId + ": environment variable '" + abbreviate(name)
            + "' is not an array task's (SLURM_ARRAY_* or SGE_TASK_*)");
      }
      if (value == null || !VALUE.matcher(value).matches()) {
        throw new IllegalArgumentException("job " + jobId + ": environment variable " + name + " must be a number, was '"
            + abbreviate(value) + "'");
      }
      sorted.put(name, value);
    });
    return Collections.unmodifiableMap(sorted);
  }

  private static String abbreviate(String s) {
    return s == null ? "null" : s.length() <= 40 ? s : s.substring(0, 40) + "...";
  }
}
