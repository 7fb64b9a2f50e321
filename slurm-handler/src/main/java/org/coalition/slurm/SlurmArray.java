package org.coalition.slurm;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a Slurm job record stands in an array (issue #24, "Arrays"). A pending array is one
 * record for all its tasks not yet started or updated ({@link #pending}); Slurm splits a task off
 * into a record of its own (a job id of its own, {@link #taskId} set) when it starts or is
 * updated ({@code scontrol hold 276_5}), and the array's first record ends as its last task. The
 * daemon names each task {@code ARRAY_TASK} ({@link #name}) whichever record holds it.
 *
 * @param jobId the array's job id ({@code array_job_id}); 0 for a job that is no array task
 * @param taskId the task this record is ({@code array_task_id}); -1 for the record of the tasks not split off yet
 * @param pending those tasks ({@code array_task_string}: {@code 0-2,4}), or empty
 * @param submitted the array as submitted ({@code --array=0-49}), from the mark job_submit.lua
 *     left in the admin comment; empty when the filter did not name it (not opted in)
 */
record SlurmArray(long jobId, long taskId, String pending, String submitted) {
  /** A job that is no array task. */
  static final SlurmArray NONE = new SlurmArray(0, -1, "", "");
  /** Most tasks of one array the daemon lists (Slurm's MaxArraySize is 1001 by default; a bound on a spec's expansion). */
  static final int MAX_TASKS = 10_000;
  /** What job_submit.lua writes after its mark in an array's admin comment: {@code array=0-49}. */
  private static final Pattern SUBMITTED = Pattern.compile("(?:^|\\s)array=([0-9,:%-]{1,200})(?:\\s|$)");
  /** Largest array index Slurm allows (MaxArraySize is at most 4000001). */
  static final long MAX_INDEX = 4_000_000;
  private static final Pattern RANGE = Pattern.compile("([0-9]{1,9})(?:-([0-9]{1,9})(?::([0-9]{1,9}))?)?");

  SlurmArray {
    pending = pending == null ? "" : pending;
    submitted = submitted == null ? "" : submitted;
  }

  /** The array a record belongs to, from slurmrestd's fields and the job's admin comment (null fields: not given). */
  static SlurmArray of(long arrayJobId, Long arrayTaskId, String taskString, String adminComment) {
    if (arrayJobId == 0) {
      return NONE;
    }
    Matcher m = SUBMITTED.matcher(adminComment == null ? "" : adminComment);
    return new SlurmArray(arrayJobId, arrayTaskId == null ? -1 : arrayTaskId, taskString, m.find() ? m.group(1) : "");
  }

  /** Whether the record is an array's (a task, or the tasks not split off yet). */
  boolean any() {
    return jobId != 0;
  }

  /** The daemon's name of task {@code task} of this array: {@code 276_5}. */
  String name(long task) {
    return jobId + "_" + task;
  }

  /** The tasks this record stands for: its own, or the pending ones not split off (at most {@link #MAX_TASKS}). */
  List<Long> tasks() {
    if (taskId >= 0) {
      return List.of(taskId);
    }
    List<Long> out = new ArrayList<>();
    BitSet set = indices(pending);
    for (int i = set.nextSetBit(0); i >= 0; i = set.nextSetBit(i + 1)) {
      out.add((long) i);
    }
    return out;
  }

  /**
   * The variables Slurm sets for task {@code task}'s run, as Slurm 22.05 and 24.11 set them (the
   * count, the lowest and highest index of the array as submitted; the step of its stepped range,
   * 1 when it has none), or none when the array as submitted is not known.
   */
  Map<String, String> environment(long task) {
    if (submitted.isEmpty()) {
      return Map.of();
    }
    BitSet all = indices(submitted);
    Map<String, String> env = new LinkedHashMap<>();
    env.put("SLURM_ARRAY_JOB_ID", Long.toString(jobId));
    env.put("SLURM_ARRAY_TASK_ID", Long.toString(task));
    env.put("SLURM_ARRAY_TASK_COUNT", Integer.toString(all.cardinality()));
    env.put("SLURM_ARRAY_TASK_MIN", Integer.toString(Math.max(0, all.nextSetBit(0))));
    env.put("SLURM_ARRAY_TASK_MAX", Integer.toString(Math.max(0, all.length() - 1)));
    env.put("SLURM_ARRAY_TASK_STEP", Long.toString(step(submitted)));
    return env;
  }

  /** Whether the array limits how many of its tasks run at once ({@code %N}): Coalition would not keep that limit. */
  boolean throttled() {
    return submitted.contains("%");
  }

  /**
   * The indices of a Slurm task list ({@code 0-2,4}, {@code 0-10:3}, {@code 1-99%5}): at most
   * {@link #MAX_TASKS} of them, the lowest first; what does not parse, or goes past
   * {@link #MAX_INDEX}, is left out.
   */
  static BitSet indices(String spec) {
    BitSet set = new BitSet();
    int count = 0;
    for (Matcher m : ranges(spec)) {
      long from = Long.parseLong(m.group(1));
      long to = m.group(2) == null ? from : Long.parseLong(m.group(2));
      long step = m.group(3) == null ? 1 : Math.max(1, Long.parseLong(m.group(3)));
      for (long i = from; i <= to && to <= MAX_INDEX && count < MAX_TASKS; i += step) {
        if (!set.get((int) i)) {
          set.set((int) i);
          count++;
        }
      }
    }
    return set;
  }

  /** The step Slurm reports for a task list: that of its (last) stepped range, 1 when none is stepped. */
  private static long step(String spec) {
    long step = 1;
    for (Matcher m : ranges(spec)) {
      if (m.group(3) != null) {
        step = Math.max(1, Long.parseLong(m.group(3)));
      }
    }
    return step;
  }

  /** The items of a task list that parse ({@code N}, {@code N-M}, {@code N-M:S}), its {@code %N} limit left off. */
  private static List<Matcher> ranges(String spec) {
    String list = spec.contains("%") ? spec.substring(0, spec.indexOf('%')) : spec;
    List<Matcher> out = new ArrayList<>();
    for (String item : list.split(",")) {
      Matcher m = RANGE.matcher(item.strip());
      if (m.matches()) {
        out.add(m);
      }
    }
    return out;
  }
}
