package org.coalition.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.RetryOneTime;
import org.coalition.coordination.zookeeper.ZkFederation;
import org.coalition.coordination.zookeeper.ZkTls;
import org.coalition.policy.contracts.MarketCalendar;
import org.coalition.slurm.SlurmReservations;
import org.coalition.testbed.Command;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.coalition.zookeeper.policy.Identity;
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
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String BLOCK = "batch.cpu8x1";
  /** From the calendar's setting to its gate: two of the desk's 30-s steps to hold the escrow and seal both bids, and one spare. */
  private static final Duration SEALING = Duration.ofSeconds(105);
  private static final Duration REVEALS = Duration.ofSeconds(120);
  /** From the reveals' close to the slot: the desks clear, acknowledge and see each other's acknowledgement. */
  private static final Duration CLEARING = Duration.ofSeconds(120);
  private static final Duration SLOT = Duration.ofSeconds(150);
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
    fed.startDaemon("north", jar, Federation.slurmHandler(north), north.get("user"), north.get("partition"), Map.of(), String.format("""
        contracts:
          enabled: true
          buy:
            - type: %s
              limit: %d
        """, BLOCK, BUY_LIMIT));
    fed.startDaemon("south", jar, Federation.slurmHandler(south), south.get("user"), south.get("partition"), Map.of(), String.format("""
        contracts:
          enabled: true
          sell:
            - type: %s
              limit: %d
        """, BLOCK, SELL_LIMIT));
    fed.awaitLive(members);

    // north's own work fills its node; its users' two jobs wait in the federated partition
    String filler = Users.sbatch(north, "--parsable", "-p", north.get("partition"), "-c", north.get("cpus"), "--mem=100M", "-t", "30",
        "-o", "/dev/null", "--wrap", "sleep 900");
    Eventually.waitFor(() -> "north's own job " + filler + " to fill its node", Duration.ofMinutes(1), Duration.ofSeconds(1),
        () -> "RUNNING".equals(state(north, filler)));

    // the operator's calendar: the gate SEALING from now, the slot the first after the reveals close and CLEARING
    Instant now = Instant.now();
    long slot = ceil(now.plus(SEALING).plus(REVEALS).plus(CLEARING).getEpochSecond(), SLOT.toSeconds());
    long slotEnd = slot + SLOT.toSeconds();
    Instant gate = Instant.ofEpochSecond(slot).minus(CLEARING).minus(REVEALS);
    Instant dayStart = MarketCalendar.start(MarketCalendar.dayOf(slot));
    ZkFederation.setMarketCalendar(fed.zk().connectString(), operator(), new MarketCalendar(Duration.between(gate, dayStart), REVEALS, SLOT));
    reservation = "coalition_" + slot + "_" + BLOCK.replace('.', '_');
    System.out.printf("[e2e] market: gate %s, reveals close %s, slot %s to %s (%s)%n", gate, gate.plus(REVEALS), Instant.ofEpochSecond(slot),
        Instant.ofEpochSecond(slotEnd), reservation);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < JOBS; i++) {
      ids.add(Users.sbatch(north, "--parsable", "-p", north.get("federated.partition"), "-c", "4", "--mem=200M", "-t", "1", "-o", "/dev/null",
          "--wrap", "sleep 20"));
    }

    // 1. before the slot: both sides acknowledge the contract; south's block is held for its observer, not for north
    Map<String, JsonNode> contract = new TreeMap<>();
    Eventually.waitFor(() -> "both sides to acknowledge a contract of slot " + slot + ": " + contract, Duration.between(Instant.now(),
        Instant.ofEpochSecond(slot)), Duration.ofSeconds(1), () -> {
          members.forEach(site -> contract.put(site, only(site)));
          return contract.values().stream().allMatch(c -> "ACKNOWLEDGED".equals(c.path("phase").asText())
              && "ACKNOWLEDGED".equals(c.path("counterpartyPhase").asText()));
        });
    double acknowledged = since(slot);
    JsonNode bought = contract.get("north");
    JsonNode sold = contract.get("south");
    assertEquals(bought.path("id").asText(), sold.path("id").asText(), "one contract, both sides: " + contract);
    assertEquals(List.of("buy", "south", "sell", "north"), List.of(bought.path("side").asText(), bought.path("counterparty").asText(),
        sold.path("side").asText(), sold.path("counterparty").asText()), "north bought, south sold: " + contract);
    assertEquals(List.of(Instant.ofEpochSecond(slot).toString(), BLOCK), List.of(bought.path("slotStart").asText(), bought.path("blockType")
        .asText()), "the contract is the block of the slot bid for: " + bought);
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
    Map<String, Double> timeline = new LinkedHashMap<>();
    timeline.put("both acknowledged", acknowledged);
    Map<String, String> states = new TreeMap<>();
    Eventually.waitFor(() -> "north's jobs to run at south in the slot and come back; states " + states + ", timeline " + timeline,
        Duration.ofSeconds(slotEnd - Instant.now().getEpochSecond()), Duration.ofMillis(250), () -> {
          if (!timeline.containsKey("handed over") && escrow().show(reservation).map(r -> r.users().equals(List.of(south.get("user"))))
              .orElse(false)) {
            timeline.put("handed over", since(slot));
          }
          for (String id : ids) {
            String s = fed.job("north", id).path("state").asText("not published");
            if (!s.equals(states.put(id, s))) {
              timeline.put("job " + id + " " + s, since(slot));
            }
          }
          return states.values().stream().allMatch("replayed"::equals);
        });
    System.out.println("[e2e] the slot's timeline, seconds from its start: " + timeline);
    assertTrue(timeline.containsKey("handed over"), "south handed the block to north's pool account in the slot: " + timeline);
    for (String id : ids) {
      JsonNode view = fed.job("north", id);
      assertEquals("south", view.path("executor").asText(), "job " + id + " ran at south: " + view);
      assertTrue(timeline.entrySet().stream().filter(e -> e.getKey().startsWith("job " + id + " ") && !e.getKey().endsWith(" not published"))
          .allMatch(e -> e.getValue() >= 0), "job " + id + " was published only once the slot opened: " + timeline);
    }
    assertTrue(logged("north", "decision=publish", "reason=bought-slot"), "north published into the block it bought (decision=publish"
        + " reason=bought-slot, target/e2e/contract/north.log)");
    assertTrue(logged("south", "decision=pilot", "reason=sold-slot"), "south sent its pilots into the block it sold (decision=pilot"
        + " reason=sold-slot, target/e2e/contract/south.log)");
    assertEquals("PENDING", state(south, local), "south's own job of the whole node waits while the slot is open");
    // the buyer notes the contract open (and pays the fee) at its desk's first step that sees the seller's note: within 30 s
    Eventually.waitFor(() -> "north to note the contract open, as south did: " + contract, Duration.ofMinutes(1), Duration.ofSeconds(1), () -> {
      contract.put("north", only("north"));
      return "OPEN".equals(contract.get("north").path("phase").asText()) && "OPEN".equals(contract.get("north").path("counterpartyPhase").asText());
    });
    System.out.println("[e2e] north noted the contract open (and paid the fee) by " + since(slot) + " s into the slot");
    List<String> panel = contractsPanel("north");
    System.out.println("[e2e] north's dashboard, its contracts panel in the slot: " + panel);
    assertTrue(panel.size() == 1 && panel.get(0).contains("(open now)") && panel.get(0).contains(" bought south ")
        && panel.get(0).contains(" open open " + reservation), "north's dashboard shows the block it bought, open now, in its contracts panel: "
        + panel);

    // 3. after the slot: south's own job runs, both sides settle, north has paid the holding fee
    Eventually.waitFor(() -> "south's own job " + local + " to start after the slot", Duration.ofMinutes(3), Duration.ofSeconds(1),
        () -> !"PENDING".equals(state(south, local)));
    long started = epoch(Command.of(south.tool("squeue"), "-h", "-j", local, "-o", "%S").run().requireSuccess().stdout().strip());
    System.out.printf("[e2e] south's own job %s started %+d s from the slot's end%n", local, started - slotEnd);
    assertTrue(started >= slotEnd, "south's own job started only when the slot ended (" + (started - slotEnd) + " s from its end)");
    Eventually.waitFor(() -> "both sides to note the contract settled: " + contract, Duration.ofMinutes(3), Duration.ofSeconds(2), () -> {
      members.forEach(site -> contract.put(site, only(site)));
      return contract.values().stream().allMatch(c -> "SETTLED".equals(c.path("phase").asText())
          && "SETTLED".equals(c.path("counterpartyPhase").asText()));
    });
    assertEquals(contract.get("north"), fed.get("north", "v1/contracts/" + bought.path("id").asText()), "one contract read alone, as listed");
    String shown = Command.of(Path.of(System.getProperty("java.home"), "bin", "java"), "-jar", Path.of("target", "coalition.jar").toString(),
        "contracts", "show", bought.path("id").asText(), "--url", "http://127.0.0.1:" + fed.port("north")).run().requireSuccess().stdout();
    System.out.println("[e2e] coalition contracts show, at north:\n" + shown);
    assertTrue(shown.contains("bought from") && shown.contains("south says") && shown.matches("(?s).*holding fee \\(credit\\)\\s+"
        + Math.round(sold.path("price").asDouble() / 2) + ",.*") && shown.contains(reservation), "the admin's view of the contract: " + shown);
    JsonNode paid = ledgerRow("north").path("paid").path("south");
    System.out.printf("[e2e] contract %s: price %.0f credit; north paid south %s%n", bought.path("id").asText(), price, paid);
    double fee = sold.path("price").asDouble() / 2;
    assertEquals(fee, bought.path("holdingFee").asDouble(), 1e-6, "the buyer's view names the fee, half the sell price: " + bought);
    assertEquals(fee, paid.path("sums").path("simpl").path("intercept").asDouble(), 1e-6,
        "north's ledger row pays south the holding fee, half the sell price: " + paid);
    reservation = null; // Slurm purged it at its end
  }

  private ZkTls operator() {
    return new ZkTls(fed.zk().identity(Identity.operator(Federation.NAME)), fed.zk().trustStore());
  }

  /** {@code site}'s one contract as its daemon shows it, an empty object while there is none. */
  private JsonNode only(String site) {
    try {
      JsonNode all = fed.get(site, "v1/contracts");
      JsonNode list = all == null ? JSON.createArrayNode() : all.path("contracts");
      return list.size() == 1 ? list.get(0) : JSON.createObjectNode();
    } catch (Exception e) {
      return JSON.createObjectNode();
    }
  }

  /** {@code site}'s ledger row, as it wrote it in ZooKeeper. */
  private JsonNode ledgerRow(String site) throws Exception {
    try (CuratorFramework zk = operator().curator(fed.zk().connectString()).retryPolicy(new RetryOneTime(500)).build()) {
      zk.start();
      return JSON.readTree(zk.getData().forPath("/coalition/" + Federation.NAME + "/ledger/" + site));
    }
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
  private static String state(Instance slurm, String id) {
    return Command.of(slurm.tool("squeue"), "-h", "-j", id, "-o", "%T").run().stdout().strip();
  }

  /** Epoch seconds of a time as Slurm prints it (local time, {@code 2026-12-04T03:55:00}). */
  private static long epoch(String slurmTime) {
    return LocalDateTime.parse(slurmTime).atZone(ZoneId.systemDefault()).toEpochSecond();
  }

  private static long ceil(long t, long grid) {
    return Math.floorDiv(t + grid - 1, grid) * grid;
  }

  private static double since(long slot) {
    return Math.round((System.currentTimeMillis() / 1000.0 - slot) * 10) / 10.0;
  }

  /** Whether a line of {@code site}'s daemon's log holds both parts. */
  private boolean logged(String site, String one, String other) {
    try {
      return Files.readString(fed.logOf(site)).lines().anyMatch(l -> l.contains(one) && l.contains(other));
    } catch (IOException e) {
      throw new AssertionError("the log of " + site + "'s daemon: " + e.getMessage(), e);
    }
  }
}
