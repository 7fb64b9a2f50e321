package org.coalition.condor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.coalition.handler.Tool;
import org.coalition.testbed.Command;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * HTCondor's variant of a contract's escrow on the testbed's pool (docs/decisions/0020): the
 * execute point's slots are kept for a window a few seconds ahead by START and PREEMPT in a file
 * of the daemon's own, handed to the buyer's pool account. A local job that says it would run
 * into the window waits for its end; one that says nothing starts, is vacated when the window
 * opens and runs again after it; the pool's job, submitted as the window opens, starts in it.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class CondorReservationsIT {
  private static final Duration LEAD = Duration.ofSeconds(20);
  private static final Duration WINDOW = Duration.ofSeconds(40);
  private final Instance condor = Testbed.require("condor");

  @Test
  void aWindowKeptForTheBuyersPoolRunsOnlyItsJobsThere() throws Exception {
    Path file = condor.path("config.dir").resolve("zz-coalition-reservations.conf");
    CondorReservations reservations = new CondorReservations(file,
        new Tool(List.of(condor.tool("condor_reconfig").toString()), Map.of(), Duration.ofSeconds(30)));
    String name = "coalition_it_" + System.currentTimeMillis();
    Instant start = Instant.now().plus(LEAD).truncatedTo(ChronoUnit.SECONDS);
    Instant end = start.plus(WINDOW);
    String machine = Command.of(condor.tool("condor_status"), "-af", "Machine").run().requireSuccess().stdout().strip().split("\n")[0];
    Path dir = Files.createTempDirectory(condor.path("jobs.dir"), "reservation");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    List<String> jobs = new ArrayList<>();
    try {
      reservations.escrow(name, start, end, List.of(machine), "root");
      CondorReservations.Reservation handed = reservations.handOver(name, condor.get("pool"));
      assertEquals(Optional.of(handed), reservations.show(name));
      waitForStartExpression();

      String declared = submit(dir, condor.get("user"), 10, "allowed_execute_duration = 60");
      String silent = submit(dir, condor.get("user"), 60, null);
      jobs.addAll(List.of(declared, silent));
      sleepUntil(start);
      String bought = submit(dir, condor.get("pool"), 5, null);
      jobs.add(bought);
      Map<String, List<Instant>> runs = watch(jobs, end.plusSeconds(40));

      Instant boughtStart = runs.get(bought).get(0);
      Instant declaredStart = runs.get(declared).get(0);
      List<Instant> silentRuns = runs.get(silent);
      Instant lastBefore = silentRuns.stream().filter(t -> t.isBefore(end)).reduce((a, b) -> b).orElse(null);
      Instant firstAfter = silentRuns.stream().filter(t -> !t.isBefore(end)).findFirst().orElse(null);
      System.out.printf("[contracts] condor: window %s-%s; the buyer's job, submitted as it opened, started %+d s after; a local job"
          + " declaring 60 s started %+d s after it closed; one declaring nothing ran until %s and again from %s (s from the window's"
          + " start)%n", start, end, Duration.between(start, boughtStart).toSeconds(), Duration.between(end, declaredStart).toSeconds(),
          lastBefore == null ? "-" : "%+d".formatted(Duration.between(start, lastBefore).toSeconds()),
          firstAfter == null ? "-" : "%+d".formatted(Duration.between(start, firstAfter).toSeconds()));
      assertFalse(boughtStart.isBefore(start));
      assertTrue(boughtStart.isBefore(start.plusSeconds(20)), "the buyer's job started " + boughtStart + ", window opened " + start);
      assertFalse(declaredStart.isBefore(end), "a job that said it would run into the window started at " + declaredStart);
      for (Instant t : runs.get(silent)) {
        assertFalse(t.isAfter(start.plusSeconds(20)) && t.isBefore(end), "a local job was running inside the window at " + t);
      }
      assertTrue(runs.get(silent).stream().anyMatch(t -> !t.isBefore(end)), "the vacated local job ran again after the window");
    } finally {
      reservations.remove(name);
      for (String job : jobs) {
        Command.of(condor.tool("condor_rm"), job).run();
      }
    }
    assertEquals(Optional.empty(), reservations.show(name));
    assertFalse(reservations.remove(name));
  }

  /** The startd advertises the new START once condor_reconfig has reached it. */
  private void waitForStartExpression() throws InterruptedException {
    Instant deadline = Instant.now().plusSeconds(30);
    while (!Command.of(condor.tool("condor_status"), "-af:r", "START").run().stdout().contains("\"" + condor.get("pool") + "\"")) {
      assertTrue(Instant.now().isBefore(deadline), "the startd never advertised the reservation's START");
      Thread.sleep(500);
    }
  }

  private String submit(Path dir, String user, int seconds, String extra) throws Exception {
    Path sub = Files.createTempFile(dir, "job", ".sub");
    Files.writeString(sub, String.join("\n", "executable = /bin/sleep", "arguments = " + seconds, "log = " + sub + ".log",
        "should_transfer_files = NO", extra == null ? "" : extra, "queue", ""));
    Files.setPosixFilePermissions(sub, PosixFilePermissions.fromString("rw-r--r--"));
    String id = Command.of(condor.tool("condor_submit"), "-terse", sub.toString()).asUser(user).run().requireSuccess().stdout().strip();
    return id.replaceAll("\\s*-.*", "");
  }

  /** Each job's moments seen running, polled each second until {@code until}. */
  private Map<String, List<Instant>> watch(List<String> jobs, Instant until) throws InterruptedException {
    Map<String, List<Instant>> running = new TreeMap<>();
    jobs.forEach(j -> running.put(j, new ArrayList<>()));
    while (Instant.now().isBefore(until)) {
      String listing = Command.of(condor.tool("condor_q"), "-all", "-af", "ClusterId", "ProcId", "JobStatus").run().stdout();
      Instant now = Instant.now();
      for (String line : listing.split("\n")) {
        String[] w = line.strip().split("\\s+");
        String id = w.length == 3 ? w[0] + "." + w[1] : "";
        if (running.containsKey(id) && w[2].equals("2")) {
          running.get(id).add(now);
        }
      }
      Thread.sleep(1000);
    }
    for (Map.Entry<String, List<Instant>> e : running.entrySet()) {
      assertFalse(e.getValue().isEmpty(), "job " + e.getKey() + " never ran");
    }
    return running;
  }

  private static void sleepUntil(Instant t) throws InterruptedException {
    long ms = Duration.between(Instant.now(), t).toMillis();
    if (ms > 0) {
      Thread.sleep(ms);
    }
  }
}
