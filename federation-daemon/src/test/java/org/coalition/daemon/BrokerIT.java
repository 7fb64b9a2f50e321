package org.coalition.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.coalition.coordination.SiteLedger;
import org.coalition.daemon.LocalFederation.Site;
import org.coalition.daemon.home.FinishedJob;
import org.coalition.daemon.pilot.PilotService;
import org.coalition.local.LocalSite;
import org.coalition.policy.fairness.Utility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker's events on a {@link LocalFederation}: the in-memory coordination and demo sites
 * running real local processes, rounds driven by hand.
 */
class BrokerIT {
  private static final String ME = LocalFederation.ME;

  @TempDir Path tmp;
  private LocalFederation fed;

  @BeforeEach
  void open() throws Exception {
    fed = new LocalFederation(tmp);
  }

  @AfterEach
  void close() {
    fed.close();
  }

  private void roundsUntil(String what, BooleanSupplier done) throws InterruptedException {
    fed.roundsUntil(what, done);
  }

  private static LocalSite.Job job(Site s, String id) {
    return LocalFederation.job(s, id);
  }

  @Test
  void aJobWithNoRoomAtHomeRunsElsewhereAndEndsAtHomeAsItEndedThere() throws Exception {
    Site home = fed.site("home", 1);
    Site exec = fed.site("exec", 4);
    home.broker().start();
    exec.broker().start();
    home.local().submit(ME, 1, 60, "sleep 2\n");
    String id = home.local().submit(ME, 1, 60, "echo \"hello from $(id -un)\"\necho oops >&2\nexit 3\n");
    roundsUntil("the second job ends at home", () -> job(home, id).done());

    FinishedJob f = home.broker().finished(id).orElseThrow();
    assertEquals("exec", f.executor());
    assertEquals(3, f.exitCode());
    assertEquals("replayed", f.outcome());
    LocalSite.Job j = job(home, id);
    assertEquals(3, j.exitCode(), "the home job ends with the remote exit code");
    assertEquals("hello from " + ME + "\n", j.stdout(), "the remote output is replayed at home");
    assertTrue(home.broker().decisions().counts().containsKey("publish no-local-room"), home.broker().decisions().counts().toString());
    assertTrue(exec.broker().decisions().counts().containsKey("claim directcontr"), exec.broker().decisions().counts().toString());

    roundsUntil("the run is folded into both ledgers", () -> {
      Map<String, SiteLedger> l = home.coordination().ledgers();
      return l.containsKey("exec") && l.get("exec").jobsExecuted() == 1 && l.containsKey("home") && l.get("home").jobsSubmitted() == 1;
    });
    double now = home.coordination().now();
    Map<String, SiteLedger> ledgers = home.coordination().ledgers();
    assertTrue(ledgers.get("exec").priority(Utility.SIMPL, now) > 0, "the executor earned priority");
    assertTrue(ledgers.get("home").priority(Utility.SIMPL, now) < 0, "the home site spent priority");
    assertEquals(0, exec.broker().pilotsByState().get("running"));
  }

  @Test
  void aSiteOfTwoBatchSystemsPublishesBothsJobsAndReplaysEachInItsOwn() throws Exception {
    LocalFederation.TwoSystems home = fed.twoSystems("home", 1, 2);
    LocalFederation.TwoSystems exec = fed.twoSystems("exec", 1, 4);
    home.site().broker().start();
    exec.site().broker().start();
    home.a().submit(ME, 1, 60, "sleep 3\n");
    home.b().submit(ME, 1, 60, "sleep 3\n");
    String atA = home.a().submit(ME, 1, 60, "echo from a\nexit 3\n");
    String atB = home.b().submit(ME, 2, 60, "echo from b\n");
    assertEquals(atA, atB, "both systems number their jobs alike; the site tells them apart by name");
    // b has a core free, but a's job cannot run on b: room is judged on each job's own system, so both are published
    roundsUntil("both jobs end at home", () -> LocalFederation.job(home.a(), atA).done() && LocalFederation.job(home.b(), atB).done());

    FinishedJob fa = home.site().broker().finished("a." + atA).orElseThrow();
    FinishedJob fb = home.site().broker().finished("b." + atB).orElseThrow();
    assertEquals("exec", fa.executor());
    assertEquals("exec", fb.executor());
    LocalSite.Job ja = LocalFederation.job(home.a(), atA);
    LocalSite.Job jb = LocalFederation.job(home.b(), atB);
    assertEquals(3, ja.exitCode());
    assertEquals("from a\n", ja.stdout());
    assertEquals(0, jb.exitCode());
    assertEquals("from b\n", jb.stdout());
    assertTrue(exec.b().jobs().isEmpty() && exec.a().jobs().isEmpty(), "the executing site ran pilots, no user jobs of its own");
  }

  @Test
  void aPublishedJobRunsAtHomeWhenRoomAppearsBeforeAnyClaim() throws Exception {
    Site home = fed.site("home", 1);
    Site idle = fed.site("idle", 1);
    home.broker().start();
    idle.broker().start();
    idle.local().submit(ME, 1, 60, "sleep 4\n"); // the other site is busy: no pilot there
    home.local().submit(ME, 1, 60, "sleep 1\n");
    String id = home.local().submit(ME, 1, 60, "echo at home\n");
    roundsUntil("the job ends", () -> job(home, id).done());

    assertEquals("home", job(home, id).ranAt(), "withdrawn and run at home");
    assertEquals("at home\n", job(home, id).stdout());
    assertTrue(home.broker().decisions().counts().containsKey("publish no-local-room"), home.broker().decisions().counts().toString());
    assertTrue(home.broker().decisions().counts().containsKey("withdraw local-room"), home.broker().decisions().counts().toString());
    assertEquals(List.of(), home.coordination().jobs("home"), "nothing of home's is left in the federation");
  }

  @Test
  void aJobParkedButNeverPublishedRunsAtHomeAfterARestart() throws Exception {
    Site home = fed.site("home", 1);
    String id = home.local().submit(ME, 1, 60, "sleep 1\n");
    String parked = home.local().submit(ME, 1, 60, "echo released\n");
    home.broker().parks().parking(parked); // as if the daemon died between parking and publishing: its record, then its hold
    home.local().park(parked);
    home.broker().start();
    assertTrue(home.broker().decisions().counts().containsKey("unpark parked-not-published"));
    roundsUntil("both jobs end at home", () -> job(home, id).done() && job(home, parked).done());
    assertEquals("released\n", job(home, parked).stdout());
  }

  @Test
  void aRunWhoseClaimIsLostIsKilledAndTheJobRunsExactlyOnceMore() throws Exception {
    Site home = fed.site("home", 1);
    Site exec = fed.site("exec", 2);
    home.broker().start();
    exec.broker().start();
    home.local().submit(ME, 1, 60, "sleep 30\n");
    Path marker = tmp.resolve("runs");
    Files.createFile(marker);
    Files.setPosixFilePermissions(marker, PosixFilePermissions.fromString("rw-rw-rw-"));
    String id = home.local().submit(ME, 1, 60, "echo run >> " + marker + "\nsleep 3\n");
    roundsUntil("the job runs at exec", () -> exec.broker().pilotsByState().get("running") == 1);
    exec.coordination().expireSession(); // exec's session ends: home requeues, exec's heartbeat fails
    roundsUntil("exec killed the lost run", () -> exec.broker().decisions().counts().containsKey("kill-run claim-lost"));
    roundsUntil("the job ends at home", () -> job(home, id).done());
    assertEquals(0, job(home, id).exitCode());
    assertEquals(1, home.broker().decisions().counts().get("replay finished-remotely"), "replayed exactly once");
    assertEquals(2, Files.readAllLines(marker).size(), "ran twice: the lost run, then the one that counted");
  }

  @Test
  void pilotsMustShowTheirCapability() throws Exception {
    Site exec = fed.site("exec", 1);
    exec.broker().start();
    assertThrows(PilotService.PilotRefused.class, () -> exec.broker().work("exec-1-abc", "guess"));
    assertThrows(PilotService.PilotRefused.class, () -> exec.broker().heartbeat(null, null));
    assertFalse(exec.broker().decisions().counts().containsKey("claim directcontr"));
  }
}
