package org.coalition.containers;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The load of issue #23's soak: {@code count} one-core jobs of alice's at the home site, submitted
 * evenly over {@code over} from a thread of their own. Job {@code i} sleeps 4 to 12 s and writes
 * 4 to 20 KB made from its index (lines {@code soak-I-00001} ...), then its {@link Jobs#line}, and
 * exits with {@link Jobs#exitCode}: the test knows every output's SHA-256 without keeping it, and
 * the outputs are too large to travel inline in ZooKeeper, so each is fetched from its executor.
 * Sizes and sleeps come from a seed.
 */
final class Soak {
  private final Jobs jobs;
  private final SlurmSite home;
  private final int count;
  private final Duration over;
  private final Random random;
  private final Map<Integer, String> expected = new ConcurrentSkipListMap<>();
  private final Thread submitter;
  private volatile int submitted;
  private volatile RuntimeException failure;

  Soak(Jobs jobs, SlurmSite home, int count, Duration over, long seed) {
    this.jobs = jobs;
    this.home = home;
    this.count = count;
    this.over = over;
    this.random = new Random(seed);
    this.submitter = new Thread(this::submitAll, "soak-submitter");
    submitter.setDaemon(true);
  }

  /** Starts submitting. */
  void start() {
    submitter.start();
  }

  private void submitAll() {
    long t0 = System.nanoTime();
    try {
      for (int i = 0; i < count; i++) {
        long due = t0 + over.toNanos() * i / count;
        long wait = (due - System.nanoTime()) / 1_000_000;
        if (wait > 0) {
          Thread.sleep(wait);
        }
        int seconds = 4 + random.nextInt(9);
        int lines = 300 + random.nextInt(1000);
        expected.put(i, sha256(output(i, lines)));
        jobs.submit(i, 1, seconds, "seq -f 'soak-" + i + "-%05g' 1 " + lines);
        submitted = i + 1;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      failure = e;
    }
  }

  /** What job {@code i} writes. */
  private static String output(int i, int lines) {
    StringBuilder out = new StringBuilder();
    for (int k = 1; k <= lines; k++) {
      out.append(String.format("soak-%d-%05d\n", i, k));
    }
    return out.append(Jobs.line(i)).toString();
  }

  /**
   * Whether every job is submitted and its run came home: the home site keeps it in its results
   * folder until the user's job replays it (the home is full, so none replays before the end).
   */
  boolean allCameHome() {
    if (failure != null) {
      throw new IllegalStateException("submitting the soak's jobs failed after " + submitted + " of " + count, failure);
    }
    if (submitted < count) {
      return false;
    }
    return cameHome() == count;
  }

  /** How many of the jobs have their run back at home. */
  int cameHome() {
    Set<String> results = new HashSet<>(List.of(Engine.exec(home.nodes.get(0), "root", "ls", "-1", "/var/spool/coalition/results")
        .split("\n")));
    return (int) jobs.ids().stream().filter(results::contains).count();
  }

  int submitted() {
    return submitted;
  }

  /** Jobs whose output at home differs from what the job wrote, with both digests; empty when every output arrived byte-identical. */
  Map<Integer, String> outputsDiffering() {
    Map<Integer, String> digests = jobs.outputDigests();
    Map<Integer, String> wrong = new TreeMap<>();
    expected.forEach((i, sha) -> {
      if (!sha.equals(digests.get(i))) {
        wrong.put(i, "expected " + sha + ", found " + digests.getOrDefault(i, "no output file"));
      }
    });
    return wrong;
  }

  static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
