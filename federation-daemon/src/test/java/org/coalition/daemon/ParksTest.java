package org.coalition.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.coalition.coordination.MutableClock;
import org.coalition.coordination.memory.InMemoryFederation;
import org.coalition.daemon.base.OperatorSettings;
import org.coalition.daemon.executor.PilotJournal;
import org.coalition.daemon.home.ParkJournal;
import org.coalition.daemon.outputs.RunOutputs;
import org.coalition.handler.HomeJob;
import org.coalition.periodic.BalancingPeriod;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parks are marked as parks (issue #24): the home side releases only the holds it made, and tells
 * them from an administrator's across a restart, on the in-memory coordination and a hand-written
 * batch system.
 */
class ParksTest {
  private static final Duration PUBLISH_AFTER = Duration.ofSeconds(30);

  @TempDir Path tmp;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private InMemoryFederation fed;
  private FakeBatch batch;
  private Broker home;
  /** An idle site: with it in the federation, the home has a send allowance. */
  private Broker exec;

  @BeforeEach
  void site() {
    fed = new InMemoryFederation(clock);
    batch = new FakeBatch(4);
    batch.allocatedCores = 4; // full: its users' jobs have no room
    home = startHome();
    exec = new Broker(BrokerTest.settings("exec", "local:exec"), fed.connect("exec"), new FakeBatch(8), Optional.empty(),
        new RunOutputs(tmp.resolve("exec")), clock);
    exec.start();
  }

  /** The home's daemon as it starts: a new session, the same batch system and the same spool. */
  private Broker startHome() {
    Broker b = new Broker(BrokerTest.settings("home", "local:home"), fed.connect("home"), batch, Optional.of(batch),
        new RunOutputs(tmp.resolve("outputs")), PilotJournal.NONE, ParkJournal.in(tmp.resolve("parks")), OperatorSettings.inMemory(), DaemonTls.NONE, clock);
    b.start();
    return b;
  }

  private void restartHome() {
    home.coordination().close();
    home = startHome();
  }

  /** A round, then another past {@code publish-after}: a ready job with no room is published by then. */
  private void waitAndTick() {
    round();
    clock.advance(PUBLISH_AFTER.plusSeconds(1));
    round();
  }

  /** The period's allowances (made by whichever site leads, from the queues the sites last reported), then the home's round. */
  private void round() {
    new BalancingPeriod(home.coordination()).run();
    new BalancingPeriod(exec.coordination()).run();
    home.tick();
  }

  @Test
  void anAdministratorsHoldOnAnOptedInJobIsNeitherReleasedNorPublishedNorForgottenInARestart() {
    batch.userJob("7", 2);
    batch.adminHold("7");
    for (int i = 0; i < 3; i++) {
      waitAndTick();
    }
    restartHome();
    waitAndTick();
    assertEquals(List.of(), batch.unparked, "no hold of an administrator's released");
    assertTrue(batch.jobs.get("7").held());
    assertTrue(home.coordination().jobs("home").isEmpty(), "not published while held");
  }

  @Test
  void aRestartedHomeTellsItsOwnParksFromAnAdministratorsHoldAndReleasesOnlyItsOwn() {
    batch.userJob("7", 2);
    waitAndTick();
    assertTrue(batch.jobs.get("7").held(), "parked and published: " + home.decisions().counts());
    assertEquals(1, home.coordination().jobs("home").size());
    batch.userJob("8", 2);
    batch.adminHold("8");
    restartHome();
    batch.allocatedCores = 0; // room at home: the unclaimed job 7 is withdrawn and runs here
    home.tick();
    assertEquals(List.of("7"), batch.unparked, "its own park released, the administrator's hold kept");
    assertTrue(batch.jobs.get("8").held());
  }

  @Test
  void aParkRecordedButNeverHeldIsForgottenAtTheNextStart() {
    batch.userJob("7", 2);
    ParkJournal.in(tmp.resolve("parks")).parking("7"); // a crash after the record, before the hold
    restartHome();
    batch.adminHold("7"); // an administrator holds it afterwards
    waitAndTick();
    assertEquals(List.of(), batch.unparked, "the old record did not make the administrator's hold a park");
  }

  @Test
  void theJournalKeepsParksOnDiskInAFolderOfItsOwnerAlone() throws Exception {
    Path dir = tmp.resolve("journal");
    ParkJournal j = ParkJournal.in(dir);
    j.parking("41");
    j.parking("b.42");
    HomeJob held41 = HomeJob.builder("41", "alice").cpus(1).timeLimitSeconds(60).held(true).ready(false).build();
    HomeJob held42 = HomeJob.builder("b.42", "alice").cpus(1).timeLimitSeconds(60).held(true).ready(false).build();
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
    ParkJournal again = ParkJournal.in(dir);
    assertTrue(again.parked(held41) && again.parked(held42), "a new daemon reads the parks");
    assertFalse(again.parked(HomeJob.builder("41", "alice").cpus(1).timeLimitSeconds(60)
        .build()), "a job not held is not parked, whatever the record");
    again.retain(List.of(held41), false);
    assertFalse(ParkJournal.in(dir).parked(held42), "the park of a job gone is forgotten, on disk too");
    assertThrows(IllegalArgumentException.class, () -> again.parking("../etc/passwd"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    IllegalStateException open = assertThrows(IllegalStateException.class, () -> ParkJournal.in(dir));
    assertTrue(open.getMessage().contains("chmod 700"), open.getMessage());
  }
}
