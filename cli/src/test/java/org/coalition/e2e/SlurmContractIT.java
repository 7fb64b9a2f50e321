package org.coalition.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.coalition.slurm.SlurmReservations;
import org.coalition.testbed.Command;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Issue #53's capacity contract on the testbed's real Slurm clusters: north (22.05) buys south's
 * (24.11) whole node for one slot of the day-ahead market, on a calendar the operator shortens to
 * minutes (decision 0020). South shares nothing best effort (participation 0), so BILB lets north
 * send nothing, and the contract is the only way north's jobs run there. Both daemons bid, reveal
 * and clear; south holds the block in an advance reservation before it bids; when the slot opens
 * it hands the reservation to north's pool account, north publishes the jobs that fit the block
 * and south runs them there as pilots. South's own users' job waits until the slot ends; both
 * sides note the contract settled, and north's ledger row pays south the holding fee. Prints the
 * slot's timeline ({@code [e2e]} lines). The two clusters are this test's alone (testbed/up
 * slurm22:c3 slurm24:c2), so that it can run beside the other end-to-end tests.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
@Execution(ExecutionMode.CONCURRENT) // beside the other end-to-end tests (cli/pom.xml): it mostly waits on its market's calendar
class SlurmContractIT {
  private static final String BLOCK = "batch.cpu8x1";
  private static final long BUY_LIMIT = 1100;
  private static final long SELL_LIMIT = 100;
  private static final int JOBS = 2;
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  /** The daemons' logs and the dashboard's screenshot, apart from those of the end-to-end tests beside it, whose sites have the same names. */
  private static final Path LOGS = Path.of("target", "e2e", "contract");

  @TempDir Path tmp;
  private Federation fed;
  private final Instance north = Testbed.require("slurm22-c3");
  private final Instance south = Testbed.require("slurm24-c2");
  private String reservation;

  @AfterEach
  void stop() throws Exception {
    if (fed != null) {
      fed.close();
    }
    for (Instance i : List.of(north, south)) {
      Command.of(i.tool("scancel"), "-u", i.get("user")).run();
    }
    if (reservation != null) { // a run stopped inside its slot: Slurm refuses a second reservation of the node
      Command.of(south.tool("scontrol"), "delete", "reservation", reservation).run();
    }
  }

  @Test
  void aBuyersJobsRunInTheBlockItBoughtWhileTheSellersOwnJobWaitsAndTheFeeIsPaid() throws Exception {
    List<String> members = List.of("north", "south");
    fed = Federation.start(tmp, LOGS, 1, members);
    Path jar = Federation.nodeVisibleJar(north);
    Federation.nodeVisibleJar(south);
    fed.participation("south", 0);
    fed.startDaemon("north", jar, Federation.slurmHandler(north), north.get("user"), north.get("partition"), Map.of(),
        MarketDay.buying(BLOCK, BUY_LIMIT));
    fed.startDaemon("south", jar, Federation.slurmHandler(south), south.get("user"), south.get("partition"), Map.of(),
        MarketDay.selling(BLOCK, SELL_LIMIT));
    fed.awaitLive(members);

    // north's own work fills its node; its users' two jobs wait in the federated partition
    MarketDay.fill(north);

    MarketDay day = MarketDay.set(fed);
    long slot = day.slot();
    reservation = day.reservation(BLOCK);
    List<String> ids = MarketDay.queue(north, JOBS, 4, "200M");

    // 1. before the slot: both sides acknowledge the contract; south's block is held for its observer, not for north
    Map<String, JsonNode> contract = day.awaitAcknowledged("north", "south", BLOCK);
    double acknowledged = day.since();
    JsonNode bought = contract.get("north");
    JsonNode sold = contract.get("south");
    double price = bought.path("price").asDouble();
    assertTrue(price >= SELL_LIMIT && price <= BUY_LIMIT, "the price lies between the seller's ask and the buyer's bid: " + price);
    SlurmReservations.Reservation held = escrow().show(reservation).orElseThrow(() -> new AssertionError("south holds reservation "
        + reservation));
    assertEquals(Instant.ofEpochSecond(slot), held.start(), "the escrow starts with the slot: " + held);
    assertEquals(List.of(south.get("rest.user")), held.users(), "before the slot, the block is held for south's observer: " + held);
    // south's own user's job of the whole node and three minutes: it would end inside the slot, so Slurm keeps it waiting
    String local = Users.sbatch(south, "--parsable", "-p", south.get("partition"), "-c", south.get("cpus"), "--mem=100M", "-t", "3",
        "-o", "/dev/null", "--wrap", "sleep 30");
    for (String id : ids) {
      assertNull(fed.jobOrNull("north", id), "before the slot, north sends nothing to a site of participation 0: job " + id);
    }

    // 2. the slot: south hands the block to north's pool, north publishes, south runs both jobs as pilots in it
    day.awaitRunInSlot("north", "south", ids, () -> escrow().show(reservation).map(r -> r.users().equals(List.of(south.get("user"))))
        .orElse(false), Map.of("both acknowledged", acknowledged));
    assertEquals("PENDING", MarketDay.state(south, local), "south's own job of the whole node waits while the slot is open");
    // the buyer notes the contract open (and pays the fee) at its desk's first step that sees the seller's note: within 30 s
    contract.put("north", day.awaitPhase(List.of("north"), "OPEN", Duration.ofMinutes(1)).get("north"));
    System.out.println("[e2e] north noted the contract open (and paid the fee) by " + day.since() + " s into the slot");
    List<String> panel = contractsPanel("north");
    System.out.println("[e2e] north's dashboard, its contracts panel in the slot: " + panel);
    assertTrue(panel.size() == 1 && panel.get(0).contains("(open now)") && panel.get(0).contains(" bought south ")
        && panel.get(0).contains(" open open " + reservation), "north's dashboard shows the block it bought, open now, in its contracts panel: "
        + panel);

    // 3. after the slot: south's own job runs, both sides settle, north has paid the holding fee
    Eventually.waitFor(() -> "south's own job " + local + " to start after the slot", Duration.ofMinutes(3), Duration.ofSeconds(1),
        () -> !"PENDING".equals(MarketDay.state(south, local)));
    long started = epoch(Command.of(south.tool("squeue"), "-h", "-j", local, "-o", "%S").run().requireSuccess().stdout().strip());
    long slotEnd = day.end().getEpochSecond();
    System.out.printf("[e2e] south's own job %s started %+d s from the slot's end%n", local, started - slotEnd);
    assertTrue(started >= slotEnd, "south's own job started only when the slot ended (" + (started - slotEnd) + " s from its end)");
    contract = day.awaitPhase(members, "SETTLED", Duration.ofMinutes(3));
    assertEquals(contract.get("north"), fed.get("north", "v1/contracts/" + bought.path("id").asText()), "one contract read alone, as listed");
    String shown = Command.of(Path.of(System.getProperty("java.home"), "bin", "java"), "-jar", Path.of("target", "coalition.jar").toString(),
        "contracts", "show", bought.path("id").asText(), "--url", "http://127.0.0.1:" + fed.port("north")).run().requireSuccess().stdout();
    System.out.println("[e2e] coalition contracts show, at north:\n" + shown);
    assertTrue(shown.contains("bought from") && shown.contains("south says") && shown.matches("(?s).*holding fee \\(credit\\)\\s+"
        + Math.round(sold.path("price").asDouble() / 2) + ",.*") && shown.contains(reservation), "the admin's view of the contract: " + shown);
    day.assertFeePaid("north", "south", bought, sold);
    reservation = null; // Slurm purged it at its end
  }

  /** South's reservations, read as its daemon reads them ({@code scontrol show reservation --oneliner}). */
  private SlurmReservations escrow() {
    return new SlurmReservations(List.of(south.tool("scontrol").toString()), Duration.ofSeconds(20));
  }

  /**
   * The rows of {@code site}'s dashboard's contracts panel (cells joined by a space), as Debian's
   * headless Chromium (testbed/up tools) renders the page once its scripts have read the API; its
   * screenshot is kept as {@code target/e2e/contract/SITE-dashboard.png}.
   */
  private List<String> contractsPanel(String site) throws IOException {
    Path profile = Files.createTempDirectory(tmp, "chromium-");
    List<String> flags = List.of("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir=" + profile,
        "--window-size=1300,2400", "--virtual-time-budget=10000");
    String page = "http://127.0.0.1:" + fed.port(site) + "/";
    Path shot = LOGS.resolve(site + "-dashboard.png").toAbsolutePath();
    Command.of(CHROMIUM, with(flags, "--screenshot=" + shot, page)).timeout(Duration.ofSeconds(90)).run().requireSuccess();
    String dom = Command.of(CHROMIUM, with(flags, "--dump-dom", page)).timeout(Duration.ofSeconds(90)).run().requireSuccess().stdout();
    Matcher table = Pattern.compile("(?s)<table id=\"contracts\">.*?<tbody>(.*?)</tbody>").matcher(dom);
    assertTrue(table.find(), site + "'s dashboard has a contracts panel: " + dom.length() + " characters of page");
    List<String> rows = new ArrayList<>();
    Matcher row = Pattern.compile("(?s)<tr>(.*?)</tr>").matcher(table.group(1));
    while (row.find()) {
      List<String> cells = new ArrayList<>();
      Matcher cell = Pattern.compile("(?s)<t[dh][^>]*>(.*?)</t[dh]>").matcher(row.group(1));
      while (cell.find()) {
        cells.add(cell.group(1).strip());
      }
      rows.add(String.join(" ", cells));
    }
    return rows;
  }

  private static String[] with(List<String> flags, String... more) {
    List<String> all = new ArrayList<>(flags);
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  /** A job's state in its cluster's queue ({@code squeue -o %T}), blank once it left it. */

  /** Epoch seconds of a time as Slurm prints it (local time, {@code 2026-12-04T03:55:00}). */
  private static long epoch(String slurmTime) {
    return LocalDateTime.parse(slurmTime).atZone(ZoneId.systemDefault()).toEpochSecond();
  }
}
