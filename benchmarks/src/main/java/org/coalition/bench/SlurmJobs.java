package org.coalition.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntConsumer;
import java.util.function.Predicate;
import org.coalition.testbed.Command;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;

/** What the end-to-end benchmark does with a testbed Slurm cluster: submit as its user, read a job's state, check jobs ended once. */
final class SlurmJobs {
  /** The states of a job that has ended. */
  static final Set<String> ENDED = Set.of("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "OUT_OF_MEMORY", "NODE_FAIL", "PREEMPTED");

  private SlurmJobs() {}

  /**
   * Polls {@code slurm}'s queue (its user's jobs, four times a second) until each of {@code ids}
   * has been seen in a state {@code reached} accepts, or {@code timeout} has passed; when each was
   * first seen so (epoch milliseconds). {@code progress} hears how many have been seen.
   */
  static Map<String, Long> firstSeen(Instance slurm, Set<String> ids, Predicate<String> reached, Duration timeout, IntConsumer progress)
      throws InterruptedException {
    Map<String, Long> seen = new HashMap<>();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (seen.size() < ids.size() && System.nanoTime() < deadline) {
      Command.Result r = Command.of(slurm.tool("squeue"), "-h", "-t", "all", "-u", slurm.get("user"), "-o", "%i|%T").run();
      long now = System.currentTimeMillis();
      for (String line : r.stdout().split("\n")) {
        String[] f = line.trim().split("\\|");
        if (f.length == 2 && ids.contains(f[0]) && reached.test(f[1])) {
          seen.putIfAbsent(f[0], now);
        }
      }
      progress.accept(seen.size());
      Thread.sleep(250);
    }
    return seen;
  }

  /**
   * Each job of {@code outputs} (id to the output it must have written in {@code jobs}) ended
   * COMPLETED once: its own output, one record in {@code home}'s accounting. What does not hold
   * goes to {@code problems}.
   */
  static void checkEndedOnce(Instance home, Path jobs, Map<String, String> outputs, List<String> problems) throws IOException {
    Set<String> ids = outputs.keySet();
    for (Map.Entry<String, String> e : outputs.entrySet()) {
      Path out = jobs.resolve(e.getKey() + ".out");
      String text = Files.isRegularFile(out) ? Files.readString(out) : "(no output file)";
      if (!text.equals(e.getValue())) {
        problems.add("job " + e.getKey() + " wrote " + text.strip() + ", not " + e.getValue().strip());
      }
    }
    Map<String, List<String>> records = new TreeMap<>();
    try {
      Eventually.waitFor("the home's slurmdbd to record the end of every job", Duration.ofSeconds(60), () -> {
        records.clear();
        Command.Result r = Command.of(home.tool("sacct"), "-n", "-P", "-X", "-j", String.join(",", ids), "-o", "JobID,State,ExitCode").run();
        for (String line : r.stdout().split("\n")) {
          String[] f = line.trim().split("\\|");
          if (f.length == 3) {
            records.computeIfAbsent(f[0], k -> new ArrayList<>()).add(f[1] + "|" + f[2]);
          }
        }
        return ids.stream().allMatch(id -> records.containsKey(id) && !records.get(id).contains("RUNNING|0:0")
            && !records.get(id).contains("PENDING|0:0"));
      });
    } catch (AssertionError | RuntimeException e) {
      problems.add(e.getMessage());
    }
    for (String id : ids) {
      if (records.containsKey(id) && !records.get(id).equals(List.of("COMPLETED|0:0"))) {
        problems.add("job " + id + "'s records in sacct at its home: " + records.get(id) + ", not one COMPLETED|0:0");
      }
    }
  }

  /**
   * When each of {@code ids} ended, as {@code home}'s accounting records it (milliseconds): Slurm's
   * End, in whole seconds, taken at the middle of its second. A job not recorded as ended is left
   * out. A poller's first sight of the end lags it by the poll and, under load, by seconds more.
   */
  static Map<String, Long> endTimes(Instance home, Set<String> ids) {
    Map<String, Long> ends = new HashMap<>();
    Command.Result r = Command.of(home.tool("sacct"), "-n", "-P", "-X", "-j", String.join(",", ids), "-o", "JobID,End")
        .env("SLURM_TIME_FORMAT", "%s").run();
    for (String line : r.stdout().split("\n")) {
      String[] f = line.trim().split("\\|");
      if (f.length == 2 && ids.contains(f[0]) && f[1].matches("[0-9]{9,12}")) {
        ends.put(f[0], Long.parseLong(f[1]) * 1000 + 500);
      }
    }
    return ends;
  }

  /** {@code sbatch --parsable ARGS} as the instance's user; the job's id. */
  static String sbatch(Instance slurm, String... args) {
    List<String> all = new ArrayList<>(List.of("--parsable"));
    all.addAll(List.of(args));
    return Command.of(slurm.tool("sbatch"), all.toArray(String[]::new)).asUser(slurm.get("user")).run().requireSuccess().stdout().trim()
        .split(";")[0];
  }

  /** Job {@code id}'s state in {@code scontrol}, or empty when it is gone. */
  static String state(Instance slurm, String id) {
    Command.Result r = Command.of(slurm.tool("scontrol"), "show", "job", "-o", id).run();
    for (String word : r.stdout().trim().split(" ")) {
      if (word.startsWith("JobState=")) {
        return word.substring("JobState=".length());
      }
    }
    return "";
  }
}
