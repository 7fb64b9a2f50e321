package org.coalition.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.coalition.testbed.Command;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;

/** What the end-to-end benchmark does with a testbed Slurm cluster: submit as its user, read a job's state, check jobs ended once. */
final class SlurmJobs {
  private SlurmJobs() {}

  /**
   * Each job of {@code outputs} (id to the output it must have written in {@code jobs}) ended
   * COMPLETED once: its own output, one record in {@code home}'s accounting. What does not hold
   * goes to {@code problems}.
   */
  static void checkEndedOnce(Instance home, Path jobs, Map<String, String> outputs, List<String> problems) throws IOException {
    Map<String, Integer> ids = new LinkedHashMap<>();
    outputs.keySet().forEach(id -> ids.put(id, 0));
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
        Command.Result r = Command.of(home.tool("sacct"), "-n", "-P", "-X", "-j", String.join(",", ids.keySet()), "-o", "JobID,State,ExitCode").run();
        for (String line : r.stdout().split("\n")) {
          String[] f = line.trim().split("\\|");
          if (f.length == 3) {
            records.computeIfAbsent(f[0], k -> new ArrayList<>()).add(f[1] + "|" + f[2]);
          }
        }
        return ids.keySet().stream().allMatch(id -> records.containsKey(id) && !records.get(id).contains("RUNNING|0:0")
            && !records.get(id).contains("PENDING|0:0"));
      });
    } catch (AssertionError | RuntimeException e) {
      problems.add(e.getMessage());
    }
    for (String id : ids.keySet()) {
      if (records.containsKey(id) && !records.get(id).equals(List.of("COMPLETED|0:0"))) {
        problems.add("job " + id + "'s records in sacct at its home: " + records.get(id) + ", not one COMPLETED|0:0");
      }
    }
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
