package org.coalition.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import org.coalition.testbed.Eventually;

/**
 * A batch of alice's opted-in jobs at the home site, and what the user sees of them: Slurm's
 * accounting, the output files, and the home daemon's view (where each ran).
 */
final class Jobs {
  private final SlurmSite home;
  private final SiteApi api;
  private final String name;
  private final Runnable releaseHome;
  private final List<String> ids = new ArrayList<>();
  private final Map<String, JsonNode> views = new LinkedHashMap<>();

  Jobs(SlurmSite home, SiteApi api, String name, Runnable releaseHome) {
    this.home = home;
    this.api = api;
    this.name = name;
    this.releaseHome = releaseHome;
  }

  static int exitCode(int i) {
    return i % 3 == 2 ? 3 : 0;
  }

  static String line(int i) {
    return "job " + i + "\n";
  }

  /** Submits job {@code i} of 4 cores: it sleeps {@code seconds}, runs {@code extra}, prints its {@link #line} and exits with its {@link #exitCode}. */
  void submit(int i, int seconds, String extra) {
    submit(i, 4, seconds, extra);
  }

  void submit(int i, int cores, int seconds, String extra) {
    String script = "sleep " + seconds + "; " + (extra.isEmpty() ? "" : extra + "; ") + "echo job " + i + "; exit " + exitCode(i);
    ids.add(home.run("alice", "sbatch", "--parsable", "-p", "federated", "-c", String.valueOf(cores), "--mem=" + 50 * cores + "M", "-t",
        "5", "-o", "/home/alice/" + name + "-%j.out", "--wrap", script).trim());
  }

  /** The jobs' Slurm ids at home, in the order submitted (job {@code i} is the {@code i}th). */
  List<String> ids() {
    return List.copyOf(ids);
  }

  /** Ids of the jobs the home sees running at {@code site} now. */
  List<String> runningAt(String site) {
    List<String> at = new ArrayList<>();
    for (String id : ids) {
      JsonNode v = api.job(id);
      if (site.equals(v.path("executor").asText()) && "running".equals(v.path("state").asText())) {
        at.add(id);
      }
    }
    return at;
  }

  int running() {
    return (int) ids.stream().filter(id -> "running".equals(api.job(id).path("state").asText())).count();
  }

  /**
   * Waits until every job ran elsewhere and came back, frees the home's cores for the replays,
   * then checks what the user sees: each job ended once in Slurm's accounting, with its exit code.
   */
  void awaitReplayed(Duration timeout) {
    Map<String, String> states = new TreeMap<>();
    Eventually.waitFor(() -> "every job of " + name + " ran elsewhere and came back: " + states, timeout, Duration.ofSeconds(2), () -> {
      ids.forEach(id -> states.put(id, api.job(id).path("state").asText("not published")));
      return states.values().stream().allMatch("replayed"::equals);
    });
    ids.forEach(id -> views.put(id, api.job(id)));
    awaitAccounted(Duration.ofMinutes(2));
    forEachOutput((i, out) -> assertEquals(1, out.split("job " + i + "\n", -1).length - 1,
        "job " + i + " (" + ids.get(i) + ", ran at " + where(ids.get(i)) + ") wrote its line once: " + abbreviate(out)));
  }

  /**
   * Frees the home's cores for the replays, then checks what the user sees: each job ended once
   * in Slurm's accounting ({@code sacct --duplicates}), with its own exit code, within {@code timeout}.
   */
  void awaitAccounted(Duration timeout) {
    releaseHome.run();
    Map<String, List<String>> accounted = new LinkedHashMap<>();
    Eventually.waitFor(() -> "north's accounting to record the end of every job of " + name + ": " + accounted, timeout,
        Duration.ofSeconds(2), () -> {
          accounted.clear();
          accounted.putAll(sacct());
          return ids.stream().allMatch(id -> accounted.containsKey(id)
              && accounted.get(id).stream().noneMatch(r -> r.startsWith("PENDING") || r.startsWith("RUNNING") || r.startsWith("REQUEUED")));
        });
    for (int i = 0; i < ids.size(); i++) {
      String id = ids.get(i);
      String expected = (exitCode(i) == 0 ? "COMPLETED" : "FAILED") + "|" + exitCode(i) + ":0";
      assertEquals(List.of(expected), accounted.get(id), "sacct of job " + i + " (" + id + ", ran at " + where(id) + "): one record");
    }
  }

  private String where(String id) {
    return views.getOrDefault(id, api.job(id)).path("executor").asText("north");
  }

  private static String abbreviate(String s) {
    return s.length() <= 200 ? s : s.substring(0, 100) + " ... " + s.substring(s.length() - 100);
  }

  /** Each job's records, requeued runs included: "STATE|EXIT:SIGNAL", oldest first. */
  private Map<String, List<String>> sacct() {
    String out = home.run("root", "sacct", "--duplicates", "-X", "-n", "-P", "--format=JobID,State,ExitCode", "-j", String.join(",", ids));
    Map<String, List<String>> records = new LinkedHashMap<>();
    for (String line : out.split("\n")) {
      String[] f = line.trim().split("\\|");
      if (f.length == 3) {
        records.computeIfAbsent(f[0], k -> new ArrayList<>()).add(f[1].split(" ")[0] + "|" + f[2]);
      }
    }
    return records;
  }

  void forEachOutput(BiConsumer<Integer, String> check) {
    for (int i = 0; i < ids.size(); i++) {
      check.accept(i, home.run("alice", "cat", "/home/alice/" + name + "-" + ids.get(i) + ".out"));
    }
  }

  /** The SHA-256 of each job's output file at home, by job index, read in one command. */
  Map<Integer, String> outputDigests() {
    Map<String, Integer> index = new LinkedHashMap<>();
    for (int i = 0; i < ids.size(); i++) {
      index.put(name + "-" + ids.get(i) + ".out", i);
    }
    Map<Integer, String> digests = new TreeMap<>();
    String out = home.run("alice", "bash", "-c", "cd /home/alice && sha256sum " + name + "-*.out");
    for (String line : out.split("\n")) {
      String[] f = line.trim().split("\\s+", 2);
      Integer i = f.length == 2 ? index.get(f[1]) : null;
      if (i != null) {
        digests.put(i, f[0]);
      }
    }
    return digests;
  }

  /** Where the jobs ran, by site. */
  Map<String, Integer> ranAt() {
    Map<String, Integer> at = new TreeMap<>();
    ids.forEach(id -> at.merge(where(id), 1, Integer::sum));
    return at;
  }

  void report(String label) {
    List<Double> waits = new ArrayList<>();
    views.values().forEach(v -> waits.add(v.path("start").asDouble() - v.path("release").asDouble()));
    waits.sort(Double::compare);
    System.out.printf("[tier] %s: %d jobs, each one record in sacct and its output once; ran at %s; publish-to-start p50 %.1f s, max %.1f s%n",
        label, ids.size(), ranAt(), waits.get(waits.size() / 2), waits.get(waits.size() - 1));
  }
}
