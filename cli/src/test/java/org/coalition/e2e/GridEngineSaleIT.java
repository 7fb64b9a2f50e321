package org.coalition.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import org.coalition.gridengine.GridEngineReservations;
import org.coalition.handler.Tool;
import org.coalition.testbed.Command;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #53's capacity contract with a Grid Engine seller, on the testbed's real cell: north (Slurm
 * 22.05) buys all of east's slots for one slot of the day-ahead market, on the operator's short
 * calendar ({@link MarketDay}). East shares nothing best effort (participation 0), so the contract
 * is the only way north's jobs run there. East holds the block before it bids as a {@code qrsub}
 * advance reservation admitting an access list of its own; when the slot opens it puts north's
 * pool account on the list, north publishes the jobs that fit the block and east runs them as
 * pilots submitted with {@code -ar}. A job of east's own users that asks for the whole cell waits in
 * {@code qw} through the slot and starts after it; both sides settle and north pays the holding fee.
 * It takes the cell that {@code MixedFederationIT} and {@code SlurmFederationIT} use, so it runs
 * with them, one after the other (cli/pom.xml).
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class GridEngineSaleIT {
  /** The cell's one host, all its slots (testbed/up's queue all.q has 4): Grid Engine's escrow takes no partition, so the name's is a label. */
  private static final String BLOCK = "all.cpu4x1";
  private static final long BUY_LIMIT = 1100;
  private static final long SELL_LIMIT = 100;
  private static final int JOBS = 2;
  private static final DateTimeFormatter QSTAT_TIME = DateTimeFormatter.ofPattern("MM/dd/yyyy HH:mm:ss");

  @TempDir Path tmp;
  private Federation fed;
  private final Instance north = Testbed.require("slurm22-c1");
  private final Instance sge = Testbed.require("sge");
  private final GridEngineReservations escrow = new GridEngineReservations(new Tool(List.of(sge.tool("qconf").toString()), Map.of(),
      Duration.ofSeconds(20)));
  private String reservation;

  @AfterEach
  void stop() throws Exception {
    if (fed != null) {
      fed.close();
    }
    Command.of(sge.tool("qdel"), "-u", sge.get("user")).run();
    Command.of(north.tool("scancel"), "-u", north.get("user")).run();
    if (reservation != null) { // a run stopped before its slot ended: the next one could not reserve the cell's slots
      escrow.remove(reservation);
    }
  }

  @Test
  void aBuyersJobsRunInTheGridEngineSlotsItBoughtWhileTheSellersOwnJobWaitsAndTheFeeIsPaid() throws Exception {
    List<String> members = List.of("east", "north");
    fed = Federation.start(tmp, 1, members);
    Path jar = Federation.nodeVisibleJar(north);
    Federation.nodeVisibleJar(sge);
    fed.participation("east", 0);
    fed.startDaemon("north", jar, Federation.slurmHandler(north), north.get("user"), north.get("partition"), Map.of(),
        MarketDay.buying(BLOCK, BUY_LIMIT));
    fed.startDaemon("east", jar, Federation.gridEngineHandler(sge), sge.get("user"), "", Federation.gridEngineEnvironment(sge),
        MarketDay.selling(BLOCK, SELL_LIMIT));
    fed.awaitLive(members);

    // north's own work fills its node; its users' two jobs wait in the federated partition
    MarketDay.fill(north);

    MarketDay day = MarketDay.set(fed);
    reservation = day.reservation(BLOCK);
    List<String> ids = MarketDay.queue(north, JOBS, 2, "100M");

    // 1. before the slot: both acknowledge; east's slots are reserved from the slot's start, for its daemon's user alone
    Map<String, JsonNode> contract = day.awaitAcknowledged("north", "east", BLOCK);
    double acknowledged = day.since();
    JsonNode bought = contract.get("north");
    JsonNode sold = contract.get("east");
    GridEngineReservations.Reservation held = escrow.show(reservation).orElseThrow(() -> new AssertionError("east holds AR " + reservation
        + " (qrstat)"));
    System.out.println("[e2e] east's escrow before the slot: " + held + ", admitting " + escrow.admitted(reservation));
    assertEquals(List.of(day.start(), day.end(), Integer.parseInt(sge.get("slots"))), List.of(held.start(), held.end(), held.slots()),
        "the AR holds the cell's slots for the slot: " + held);
    String daemonUser = System.getProperty("user.name");
    assertEquals(List.of(daemonUser), escrow.admitted(reservation), "before the slot, the AR admits east's daemon's user alone");
    // east's own user's job of the whole cell for up to five minutes: it would reach into the AR, so Grid Engine keeps it waiting
    String local = Users.qsub(sge, "-b", "y", "-pe", sge.get("pe"), sge.get("slots"), "-l", "h_rt=300", "-o", "/dev/null", "-e", "/dev/null",
        "/bin/sleep", "30");
    for (String id : ids) {
      assertNull(fed.jobOrNull("north", id), "before the slot, north sends nothing to a site of participation 0: job " + id);
    }

    // 2. the slot: east admits north's pool account, north publishes, east runs both jobs as pilots in the AR
    day.awaitRunInSlot("north", "east", ids, () -> escrow.admitted(reservation).contains(sge.get("user")), Map.of("both acknowledged",
        acknowledged));
    assertEquals("qw", qstat(local)[4], "east's own job of the whole cell waits while the slot is open");

    // 3. after the slot: east's own job runs, both sides settle, north has paid the holding fee
    Eventually.waitFor(() -> "east's own job " + local + " to run after the slot", Duration.ofMinutes(3), Duration.ofSeconds(1),
        () -> "r".equals(qstat(local)[4]));
    String[] line = qstat(local);
    long started = LocalDateTime.parse(line[5] + " " + line[6], QSTAT_TIME).atZone(ZoneId.systemDefault()).toEpochSecond();
    long slotEnd = day.end().getEpochSecond();
    System.out.printf("[e2e] east's own job %s started %+d s from the slot's end%n", local, started - slotEnd);
    assertTrue(started >= slotEnd, "east's own job started only when the slot ended (" + (started - slotEnd) + " s from its end)");
    contract = day.awaitPhase(members, "SETTLED", Duration.ofMinutes(3));
    day.assertFeePaid("north", "east", bought, sold);
    Eventually.waitFor(() -> "east to release AR " + reservation, Duration.ofMinutes(1), Duration.ofSeconds(1),
        () -> escrow.show(reservation).isEmpty());
    reservation = null;
  }

  /**
   * A job's line in east's queue ({@code qstat -u USER}), split at blanks: id, priority, name, user,
   * state, and the date and time it was submitted or, running, started; seven empty fields where it is not listed.
   */
  private String[] qstat(String id) {
    return Command.of(sge.tool("qstat"), "-u", sge.get("user")).run().requireSuccess().stdout().lines().map(String::strip)
        .filter(l -> l.startsWith(id + " ")).findFirst().map(l -> l.split("\\s+")).orElse(new String[] {"", "", "", "", "", "", ""});
  }
}
