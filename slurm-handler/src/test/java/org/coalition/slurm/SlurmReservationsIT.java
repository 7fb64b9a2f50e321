package org.coalition.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.coalition.handler.Escrow;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotSpec;
import org.coalition.slurm.SlurmReservations.Reservation;
import org.coalition.testbed.Command;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A capacity contract's escrow on the testbed's real Slurm (docs/decisions/0020): the seller
 * reserves its node for a slot a few seconds ahead, for its own holder account; the reservation
 * is handed to the buyer's pool account; the pool's job waits for the slot and starts in it; a
 * local job submitted before the slot does not get the node during it and does after it.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class SlurmReservationsIT {
  private static final Duration LEAD = Duration.ofSeconds(15);
  private static final Duration SLOT = Duration.ofSeconds(40);

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"slurm22-c1", "slurm24-c1"})
  void aSlotReservedInEscrowAndHandedToTheBuyerRunsOnlyTheBuyersJobs(String target) {
    Instance slurm = SlurmHandlerIT.instance(target);
    SlurmHandlerIT.emptyQueue(slurm);
    SlurmReservations reservations = new SlurmReservations(List.of(slurm.tool("scontrol").toString()), Duration.ofSeconds(20));
    String name = "coalition-it-" + System.currentTimeMillis();
    Instant start = Instant.now().plus(LEAD).truncatedTo(ChronoUnit.SECONDS);
    Instant end = start.plus(SLOT);
    String holder = slurm.get("rest.user");
    String pool = slurm.get("pool");
    String partition = slurm.get("partition");
    try {
      Reservation escrowed = reservations.escrow(name, start, end, partition, 1, holder);
      assertEquals(List.of(holder), escrowed.users());
      assertEquals(start, escrowed.start());
      assertEquals(end, escrowed.end());
      assertEquals(1, escrowed.nodeCount());

      String local = submit(slurm, slurm.get("user"), partition, null);
      Reservation handed = reservations.handOver(name, pool);
      assertEquals(List.of(pool), handed.users());
      assertTrue(SlurmHandlerIT.run(slurm, "scontrol", "show", "reservation", name).contains("Users=" + pool),
          "scontrol show reservation names the buyer's pool account");
      String bought = submit(slurm, pool, partition, name);

      Instant boughtStart = startOf(slurm, bought, end.plusSeconds(30));
      Instant localStart = startOf(slurm, local, end.plusSeconds(120));
      System.out.printf("[contracts] %s: slot %s-%s; the buyer's job started %+d s after the slot opened, the local job %+d s after"
          + " it closed%n", target, start, end, Duration.between(start, boughtStart).toSeconds(), Duration.between(end, localStart).toSeconds());
      assertFalse(boughtStart.isBefore(start), "the buyer's job started before its slot: " + boughtStart);
      assertTrue(boughtStart.isBefore(start.plusSeconds(15)), "the buyer's job started " + boughtStart + ", slot opened " + start);
      assertFalse(localStart.isBefore(end), "the local job got the reserved node during the slot: " + localStart + ", slot ends " + end);
    } finally {
      reservations.remove(name);
      SlurmHandlerIT.emptyQueue(slurm);
    }
    assertEquals(Optional.empty(), reservations.show(name));
    assertFalse(reservations.remove(name), "removing twice finds it gone");
  }

  /**
   * The daemon's path to the same: the handler's escrow holds the node for the daemon's own user
   * (holding again finds it, another window is refused), hands it to the pool account, and a
   * pilot submitted through slurmrestd into the reservation starts when the slot opens, on each
   * REST version.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"slurm22-c1", "slurm24-c1@v0.0.40", "slurm24-c1"})
  void aPilotSubmittedThroughSlurmrestdIntoTheEscrowStartsWhenTheSlotOpens(String target) {
    Instance slurm = SlurmHandlerIT.instance(target);
    SlurmHandlerIT.emptyQueue(slurm);
    SlurmHandler handler = SlurmHandler.connect(SlurmHandlerIT.pinned(target, SlurmHandlerIT.config(slurm)
        .withScontrol(List.of(slurm.tool("scontrol").toString()))));
    Escrow escrow = handler.escrow().orElseThrow();
    String name = "coalition_it_" + System.currentTimeMillis();
    Instant start = Instant.now().plus(LEAD).truncatedTo(ChronoUnit.SECONDS);
    Instant end = start.plus(SLOT);
    String partition = slurm.get("partition");
    int cores = Integer.parseInt(slurm.get("cpus"));
    String pool = slurm.get("pool");
    try {
      Escrow.Held held = escrow.hold(name, start, end, partition, 1, cores);
      assertEquals(List.of(slurm.get("rest.user")), held.admits(), "held for the daemon's own user");
      assertEquals(held, escrow.hold(name, start, end, partition, 1, cores), "holding again finds the same reservation");
      HandlerException moved = assertThrows(HandlerException.class, () -> escrow.hold(name, start.plusSeconds(60), end.plusSeconds(60),
          partition, 1, cores));
      assertTrue(moved.getMessage().contains("scontrol delete ReservationName=" + name), moved.getMessage());
      assertEquals(List.of(pool), escrow.handOver(name, pool).admits());
      PilotHandle pilot = handler.submit(new PilotSpec("coalition-it-pilot", pool, 1, 0, 60, partition, List.of("/bin/sleep", "3"), Map.of(),
          "/tmp", false).inReservation(name));
      Instant started = startOf(slurm, pilot.nativeId(), end);
      System.out.printf("[contracts] %s: a pilot submitted through slurmrestd into %s started %+d s after the slot opened%n", target, name,
          Duration.between(start, started).toSeconds());
      assertFalse(started.isBefore(start), "the pilot started before its slot: " + started + ", slot opens " + start);
      assertTrue(started.isBefore(start.plusSeconds(15)), "the pilot started " + started + ", slot opened " + start);
    } finally {
      SlurmHandlerIT.emptyQueue(slurm); // first: Slurm refuses to delete a reservation a job runs in ("Requested reservation is in use")
      escrow.release(name);
    }
    assertEquals(Optional.empty(), escrow.find(name));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"slurm22-c1"})
  void whatSlurmRefusesIsARejectionInItsOwnWords(String target) {
    Instance slurm = SlurmHandlerIT.instance(target);
    SlurmReservations reservations = new SlurmReservations(List.of(slurm.tool("scontrol").toString()), Duration.ofSeconds(20));
    Instant start = Instant.now().plus(Duration.ofHours(1));
    HandlerException e = assertThrows(HandlerException.class,
        () -> reservations.escrow("coalition-it-bad", start, start.plusSeconds(3600), "nosuchpartition", 1, slurm.get("rest.user")));
    assertEquals(Category.REJECTED, e.category());
    assertTrue(e.getMessage().contains("Invalid partition name specified"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> reservations.escrow("a b", start, start.plusSeconds(60), "batch", 1, "root"));
    assertThrows(IllegalArgumentException.class, () -> reservations.handOver("coalition-it-bad", "root,evil"));
  }

  /** A one-minute job of all the node's cores, as {@code user}, in {@code reservation} if not null; its id. */
  private static String submit(Instance slurm, String user, String partition, String reservation) {
    List<String> args = new ArrayList<>(List.of("--parsable", "-p", partition, "-t", "1", "-n", slurm.get("cpus"), "-D", "/tmp"));
    if (reservation != null) {
      args.add("--reservation=" + reservation);
    }
    args.addAll(List.of("--wrap", "sleep 3"));
    return Command.of(slurm.tool("sbatch"), args.toArray(String[]::new)).asUser(user).run().requireSuccess().stdout().strip().split(";")[0];
  }

  /** When the job started, waiting until it has (at most until {@code latest} and a bit). */
  private static Instant startOf(Instance slurm, String job, Instant latest) {
    Duration patience = Duration.between(Instant.now(), latest).plusSeconds(30);
    String[] shown = new String[1];
    Eventually.waitFor(() -> "job " + job + " never started: " + shown[0], patience, Duration.ofMillis(500), () -> {
      shown[0] = Command.of(slurm.tool("scontrol"), "show", "job", job, "--oneliner").env("TZ", "UTC").run().stdout();
      return shown[0].contains("JobState=RUNNING") || shown[0].contains("JobState=COMPLETED") || shown[0].contains("JobState=COMPLETING");
    });
    String field = shown[0].replaceAll("(?s).*\\bStartTime=(\\S+).*", "$1");
    return LocalDateTime.parse(field).toInstant(ZoneOffset.UTC);
  }
}
