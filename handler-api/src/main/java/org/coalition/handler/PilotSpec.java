package org.coalition.handler;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.coalition.job.JobLayout;

/**
 * A pilot job to submit: the shape of the foreign job it will run (cores, memory per node, time
 * limit, and how the cores lie over nodes and tasks with the GRES each node needs: its layout),
 * the local account it runs as (mapped from the job's home site; never root), where it goes
 * (partition or queue, empty for the default), what it runs, and where its batch output (its
 * standard output and error, the pilot's own log) goes: a file on the nodes, or {@link #DISCARD}.
 * A pilot may be bound to a reservation of the batch system (a capacity contract's block). Batch
 * systems' own retries (requeue on node failure) are off for pilots: the federation requeues, not
 * the local system.
 */
public record PilotSpec(
    String name,
    String account,
    int cores,
    long memoryMb,
    long walltimeSeconds,
    String partition,
    List<String> command,
    Map<String, String> environment,
    String workingDirectory,
    boolean held,
    JobLayout layout,
    String output,
    String reservation) {
  /** The output of a pilot whose site keeps none. */
  public static final String DISCARD = "/dev/null";
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
  private static final Pattern PARTITION = Pattern.compile("[A-Za-z0-9._-]{0,64}");
  private static final Pattern RESERVATION = Pattern.compile("[A-Za-z0-9._-]{0,64}");
  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");
  /** An absolute path without what batch systems expand in output paths (Slurm's %j, Grid Engine's $JOB_ID, spaces). */
  private static final Pattern OUTPUT = Pattern.compile("/[A-Za-z0-9._+/-]{0,1023}");

  /** A pilot outside any reservation. */
  public PilotSpec(String name, String account, int cores, long memoryMb, long walltimeSeconds, String partition, List<String> command,
      Map<String, String> environment, String workingDirectory, boolean held, JobLayout layout, String output) {
    this(name, account, cores, memoryMb, walltimeSeconds, partition, command, environment, workingDirectory, held, layout, output, "");
  }

  /** A pilot laid out as {@code layout} whose output is discarded. */
  public PilotSpec(String name, String account, int cores, long memoryMb, long walltimeSeconds, String partition, List<String> command,
      Map<String, String> environment, String workingDirectory, boolean held, JobLayout layout) {
    this(name, account, cores, memoryMb, walltimeSeconds, partition, command, environment, workingDirectory, held, layout, DISCARD);
  }

  /** A pilot of one task on one node, without GRES, whose output is discarded. */
  public PilotSpec(String name, String account, int cores, long memoryMb, long walltimeSeconds, String partition, List<String> command,
      Map<String, String> environment, String workingDirectory, boolean held) {
    this(name, account, cores, memoryMb, walltimeSeconds, partition, command, environment, workingDirectory, held, JobLayout.ONE);
  }

  public PilotSpec {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("pilot name '" + name + "' must be 1-64 letters, digits, '.', '_', '-'");
    }
    if (!Accounts.isName(account)) {
      throw new IllegalArgumentException("pilot " + name + ": account '" + account + "' is not a valid local user name");
    }
    if (account.equals("root")) {
      throw new IllegalArgumentException("pilot " + name + ": foreign jobs never run as root; map the home site to an unprivileged account");
    }
    if (cores < 1) {
      throw new IllegalArgumentException("pilot " + name + ": cores must be >= 1, was " + cores);
    }
    if (memoryMb < 0) {
      throw new IllegalArgumentException("pilot " + name + ": memory must be >= 0 MB (0: the batch system's default), was " + memoryMb);
    }
    if (walltimeSeconds < 60) {
      throw new IllegalArgumentException("pilot " + name + ": time limit must be >= 60 s, was " + walltimeSeconds);
    }
    if (partition == null || !PARTITION.matcher(partition).matches()) {
      throw new IllegalArgumentException("pilot " + name + ": partition '" + partition + "' is not a valid name (empty for the default)");
    }
    command = List.copyOf(Objects.requireNonNull(command, "command"));
    if (command.isEmpty() || command.get(0).isBlank()) {
      throw new IllegalArgumentException("pilot " + name + ": a command is required");
    }
    environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
    for (String key : environment.keySet()) {
      if (!ENV_NAME.matcher(key).matches()) {
        throw new IllegalArgumentException("pilot " + name + ": environment variable name '" + key + "' is not valid");
      }
    }
    if (workingDirectory == null || !workingDirectory.startsWith("/")) {
      throw new IllegalArgumentException("pilot " + name + ": working directory must be an absolute path, was '" + workingDirectory + "'");
    }
    layout = Objects.requireNonNull(layout, "layout");
    if (output == null || !plainPath(output)) {
      throw new IllegalArgumentException("pilot " + name + ": output must be an absolute file path of letters, digits and '._+-/', was '"
          + output + "'");
    }
    if (reservation == null || !RESERVATION.matcher(reservation).matches()) {
      throw new IllegalArgumentException("pilot " + name + ": reservation '" + reservation + "' is not a reservation's name (empty for none)");
    }
    if (cores % layout.tasks() != 0) {
      throw new IllegalArgumentException("pilot " + name + ": its " + layout.tasks() + " tasks must share its " + cores + " cores evenly");
    }
  }

  /**
   * Whether {@code path} is one batch systems take as it is for an output: absolute, normal (no
   * {@code ..}, {@code .} or doubled slash), of letters, digits and {@code ._+-/} (Slurm expands
   * {@code %j}, Grid Engine {@code $JOB_ID}, and spaces split words). The site file checks
   * {@code pilots.output} by it too.
   */
  public static boolean plainPath(String path) {
    return OUTPUT.matcher(path).matches() && Path.of(path).normalize().toString().equals(path);
  }

  /** The same pilot with its batch output going to {@code file} ({@link #DISCARD}: nowhere). */
  public PilotSpec withOutput(String file) {
    return new PilotSpec(name, account, cores, memoryMb, walltimeSeconds, partition, command, environment, workingDirectory, held, layout, file,
        reservation);
  }

  /**
   * The same pilot in the batch system's reservation {@code name} (a capacity contract's block,
   * handed to its account: docs/decisions/0020), which it may start in only; empty for none.
   */
  public PilotSpec inReservation(String name) {
    return new PilotSpec(this.name, account, cores, memoryMb, walltimeSeconds, partition, command, environment, workingDirectory, held, layout,
        output, name);
  }

  /** The cores each of its tasks gets. */
  public int coresPerTask() {
    return cores / layout.tasks();
  }

  /** The time limit in whole minutes, rounded up (Slurm and Grid Engine count minutes). */
  public long walltimeMinutes() {
    return (walltimeSeconds + 59) / 60;
  }
}
