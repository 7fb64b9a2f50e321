package org.coalition.gridengine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.coalition.handler.Escrow;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.Tool;
import org.coalition.testbed.Command;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A capacity contract's escrow on the testbed's real Grid Engine (docs/decisions/0020): the
 * seller reserves all its slots a few seconds ahead with {@code qrsub}, for its holder account
 * alone; the reservation is handed to the buyer's pool account; the pool's {@code -ar} job starts
 * in the slot, another user's {@code -ar} job is refused, and a local job submitted before the slot
 * gets the slots only after it.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class GridEngineReservationsIT {
  private static final Duration LEAD = Duration.ofSeconds(15);
  private static final Duration SLOT = Duration.ofSeconds(40);
  private final Instance sge = Testbed.require("sge");
  private final GridEngineReservations reservations = new GridEngineReservations(
      new Tool(List.of(sge.tool("qconf").toString()), Map.of(), Duration.ofSeconds(20)));

  @Test
  void aSlotReservedInEscrowAndHandedToTheBuyerRunsOnlyTheBuyersJobs() {
    String name = "coalition_it_" + System.currentTimeMillis();
    Instant start = Instant.now().plus(LEAD).truncatedTo(ChronoUnit.SECONDS);
    Instant end = start.plus(SLOT);
    String slots = sge.get("slots");
    String pool = sge.get("pool");
    try {
      GridEngineReservations.Reservation escrowed = reservations.escrow(name, start, end, sge.get("pe"), Integer.parseInt(slots), "root");
      assertEquals(start, escrowed.start());
      assertEquals(end, escrowed.end());
      assertEquals(List.of("@" + name), escrowed.admits());
      assertEquals(Integer.parseInt(slots), escrowed.slots());
      assertEquals(List.of("root"), reservations.admitted(name));

      String local = qsub(sge.get("user"), "-l", "h_rt=60", "-pe", sge.get("pe"), slots);
      reservations.handOver(name, pool);
      assertEquals(List.of(pool), reservations.admitted(name));
      String ar = String.valueOf(escrowed.id());
      String bought = qsub(pool, "-ar", ar, "-l", "h_rt=30", "-pe", sge.get("pe"), slots);
      Command.Result other = Command.of(sge.tool("qsub"), "-terse", "-b", "y", "-o", "/dev/null", "-e", "/dev/null", "-ar", ar, "sleep", "1")
          .asUser(sge.get("user")).run();
      assertTrue(other.exitCode() != 0, "a user the reservation does not admit got a job into it: " + other.stdout());

      Instant boughtStart = running(bought, end);
      Instant localStart = running(local, end.plusSeconds(90));
      System.out.printf("[contracts] sge: slot %s-%s; the buyer's job seen running %+d s after the slot opened, the local job %+d s"
          + " after it closed%n", start, end, Duration.between(start, boughtStart).toSeconds(), Duration.between(end, localStart).toSeconds());
      assertFalse(boughtStart.isBefore(start), "the buyer's job ran before its slot: " + boughtStart);
      assertTrue(boughtStart.isBefore(start.plusSeconds(20)), "the buyer's job started " + boughtStart + ", slot opened " + start);
      assertFalse(localStart.isBefore(end), "the local job got the reserved slots during the slot: " + localStart + ", slot ends " + end);
    } finally {
      reservations.remove(name);
      Command.of(sge.tool("qdel"), "-u", sge.get("user"), pool).run();
    }
    assertEquals(Optional.empty(), reservations.show(name));
    assertFalse(reservations.remove(name), "removing twice finds none");
  }

  /**
   * The daemon's path to the same: the handler's escrow (an AR of the pilots' parallel environment)
   * held for the daemon's user, handed to the pool account with the daemon's user still admitted
   * (Grid Engine checks the owner of a DRMAA job, the daemon), and a pilot submitted through DRMAA
   * with {@code -ar} starts when the slot opens, as the pool account.
   */
  @Test
  void aPilotSubmittedThroughDrmaaIntoTheEscrowStartsWhenTheSlotOpens() {
    String name = "coalition_it_" + System.currentTimeMillis();
    Instant start = Instant.now().plus(LEAD).truncatedTo(ChronoUnit.SECONDS);
    Instant end = start.plus(Duration.ofSeconds(90)); // Grid Engine refuses a job whose h_rt is longer than the AR; a pilot asks at least 60 s
    int slots = Integer.parseInt(sge.get("slots"));
    String pool = sge.get("pool");
    emptyQueue(); // an AR is refused ("no suitable queues") while a job still holds the slots for its h_rt
    try (GridEngineHandler handler = GridEngineHandler.connect(GridEngineContractIT.config(sge))) {
      Escrow escrow = handler.escrow().orElseThrow();
      try {
        Escrow.Held held = escrow.hold(name, start, end, "all", 1, slots);
        assertEquals(List.of("root"), held.admits(), "held for the daemon's user");
        assertEquals(held, escrow.hold(name, start, end, "all", 1, slots), "holding again finds the same AR");
        assertEquals(Set.of("root", pool), Set.copyOf(escrow.handOver(name, pool).admits()), "the pool account, and the daemon's user");
        PilotHandle pilot = handler.submit(new PilotSpec("coalition-it-pilot", pool, slots, 0, 60, "", List.of("/bin/sleep", "3"), Map.of(),
            "/tmp", false).inReservation(name));
        Instant started = running(pilot.nativeId(), end);
        System.out.printf("[contracts] sge: a pilot submitted through DRMAA into %s seen running %+d s after the slot opened%n", name,
            Duration.between(start, started).toSeconds());
        assertFalse(started.isBefore(start), "the pilot ran before its slot: " + started + ", slot opens " + start);
        assertTrue(started.isBefore(start.plusSeconds(20)), "the pilot started " + started + ", slot opened " + start);
      } finally {
        Command.of(sge.tool("qdel"), "-u", "root", pool).run();
        escrow.release(name);
      }
      assertEquals(Optional.empty(), escrow.find(name));
    }
    // find says none once the access list is gone; the AR itself goes when its jobs have: until then a job without h_rt
    // cannot be placed beside it ("no suitable queues" under -w e), so the tests after this one wait for it to go
    Instant released = Instant.now();
    Eventually.waitFor(() -> "qrstat still lists " + name + " after its release", Duration.between(released, end).plusSeconds(30),
        Duration.ofMillis(250), () -> reservations.show(name).isEmpty());
    System.out.printf("[contracts] sge: the released AR left qrstat %.1f s after its release%n",
        Duration.between(released, Instant.now()).toMillis() / 1e3);
  }

  @Test
  void whatGridEngineRefusesIsARejectionInItsOwnWords() {
    Instant start = Instant.now().plus(Duration.ofHours(2));
    HandlerException e = assertThrows(HandlerException.class,
        () -> reservations.escrow("coalition_it_bad", start, start.plusSeconds(3600), "nosuchpe", 1, "root"));
    assertEquals(Category.REJECTED, e.category());
    assertTrue(e.getMessage().contains("nosuchpe"), e.getMessage());
    assertThrows(HandlerException.class, () -> reservations.admitted("coalition_it_bad"), "the access list went with the refused AR");
    assertThrows(IllegalArgumentException.class, () -> reservations.escrow("a-b c", start, start.plusSeconds(60), "smp", 1, "root"));
    assertThrows(IllegalArgumentException.class, () -> reservations.handOver("coalition_it_bad", "root,evil"));
  }

  /** Deletes every job, and waits until Grid Engine lists none. */
  private void emptyQueue() {
    Command.of(sge.tool("qdel"), "-u", "*").run();
    Eventually.waitFor(() -> "jobs left after qdel", Duration.ofSeconds(60), Duration.ofMillis(250),
        () -> Command.of(sge.tool("qstat"), "-u", "*").run().stdout().isBlank());
  }

  /** Submits {@code sleep 3} as {@code user} with {@code options}; its job id. */
  private String qsub(String user, String... options) {
    List<String> args = new ArrayList<>(List.of("-terse", "-b", "y", "-o", "/dev/null", "-e", "/dev/null"));
    args.addAll(List.of(options));
    args.addAll(List.of("sleep", "3"));
    return Command.of(sge.tool("qsub"), args.toArray(String[]::new)).asUser(user).run().requireSuccess().stdout().strip();
  }

  /** When the job was first seen running (or gone, having run), waiting until {@code latest} and a bit. */
  private Instant running(String job, Instant latest) {
    Instant[] seen = new Instant[1];
    Eventually.waitFor(() -> "job " + job + " never ran", Duration.between(Instant.now(), latest).plusSeconds(30), Duration.ofMillis(250),
        () -> {
          String listing = Command.of(sge.tool("qstat"), "-u", "*").run().stdout();
          boolean listed = false;
          for (String line : listing.split("\n")) {
            String[] words = line.strip().split("\\s+");
            if (words.length > 4 && words[0].equals(job)) {
              listed = true;
              if (words[4].contains("r")) {
                seen[0] = Instant.now();
              }
            }
          }
          if (!listed && seen[0] == null) {
            seen[0] = Instant.now(); // ran and ended between two looks
          }
          return seen[0] != null;
        });
    return seen[0];
  }
}
