package org.coalition.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.RetryOneTime;
import org.coalition.coordination.zookeeper.ZkFederation;
import org.coalition.coordination.zookeeper.ZkTls;
import org.coalition.policy.contracts.MarketCalendar;
import org.coalition.testbed.Command;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;
import org.coalition.zookeeper.policy.Identity;

/**
 * One day of the contracts market in an end-to-end test's federation, on a calendar the operator
 * shortens to minutes ({@code ZkFederation.setMarketCalendar}, as {@code federation market
 * --gate-in-day} does; decision 0020): the gate {@link #SEALING} from now, reveals for
 * {@link #REVEALS}, and one slot of {@link #SLOT}, the first on the slot grid {@link #CLEARING}
 * after the reveals close. Reads each site's contracts through its daemon's API and its ledger row
 * from ZooKeeper, and follows a buyer's jobs through the slot.
 */
final class MarketDay {
  /** From the calendar's setting to its gate: two of the desk's 30-s steps to hold the escrow and seal both bids, and one spare. */
  static final Duration SEALING = Duration.ofSeconds(105);
  static final Duration REVEALS = Duration.ofSeconds(120);
  /** From the reveals' close to the slot: the desks clear, acknowledge and see each other's acknowledgement. */
  static final Duration CLEARING = Duration.ofSeconds(120);
  static final Duration SLOT = Duration.ofSeconds(150);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Federation fed;
  private final long slot;

  private MarketDay(Federation fed, long slot) {
    this.fed = fed;
    this.slot = slot;
  }

  /** The site file's {@code contracts:} block of a site that buys {@code block}, paying at most {@code limit} credit. */
  static String buying(String block, long limit) {
    return contracts("buy", block, limit);
  }

  /** The site file's {@code contracts:} block of a site that sells {@code block}, taking at least {@code limit} credit. */
  static String selling(String block, long limit) {
    return contracts("sell", block, limit);
  }

  private static String contracts(String side, String block, long limit) {
    return String.format("""
        contracts:
          enabled: true
          %s:
            - type: %s
              limit: %d
        """, side, block, limit);
  }

  /** Sets the federation's calendar so that the day's one slot is the first that leaves time to seal, reveal and clear. */
  static MarketDay set(Federation fed) throws Exception {
    long slot = ceil(Instant.now().plus(SEALING).plus(REVEALS).plus(CLEARING).getEpochSecond(), SLOT.toSeconds());
    Instant gate = Instant.ofEpochSecond(slot).minus(CLEARING).minus(REVEALS);
    Instant dayStart = MarketCalendar.start(MarketCalendar.dayOf(slot));
    MarketDay day = new MarketDay(fed, slot);
    ZkFederation.setMarketCalendar(fed.zk().connectString(), day.operator(), new MarketCalendar(Duration.between(gate, dayStart), REVEALS,
        SLOT));
    System.out.printf("[e2e] market: gate %s, reveals close %s, slot %s to %s%n", gate, gate.plus(REVEALS), day.start(), day.end());
    return day;
  }

  /** The slot's start, epoch seconds. */
  long slot() {
    return slot;
  }

  Instant start() {
    return Instant.ofEpochSecond(slot);
  }

  Instant end() {
    return start().plus(SLOT);
  }

  /** The name the seller's daemon gives its escrow of {@code block} for this slot: {@code coalition_SLOT_TYPE}, dots as underscores. */
  String reservation(String block) {
    return "coalition_" + slot + "_" + block.replace('.', '_');
  }

  /** Seconds from the slot's start to now, to a tenth. */
  double since() {
    return Math.round((System.currentTimeMillis() / 1000.0 - slot) * 10) / 10.0;
  }

  /** {@code site}'s one contract as its daemon shows it, an empty object while there is none. */
  JsonNode only(String site) {
    try {
      JsonNode all = fed.get(site, "v1/contracts");
      JsonNode list = all == null ? JSON.createArrayNode() : all.path("contracts");
      return list.size() == 1 ? list.get(0) : JSON.createObjectNode();
    } catch (Exception e) {
      return JSON.createObjectNode();
    }
  }

  /** Waits up to {@code within} until each of {@code sites} and its counterparty say {@code phase} of its one contract; the contracts by site. */
  Map<String, JsonNode> awaitPhase(List<String> sites, String phase, Duration within) {
    Map<String, JsonNode> contract = new TreeMap<>();
    Eventually.waitFor(() -> String.join(" and ", sites) + " and counterparty to note the contract " + phase + ": " + contract, within,
        Duration.ofSeconds(1), () -> {
          sites.forEach(site -> contract.put(site, only(site)));
          return contract.values().stream().allMatch(c -> phase.equals(c.path("phase").asText()) && phase.equals(c.path("counterpartyPhase")
              .asText()));
        });
    return contract;
  }

  /**
   * Fills the buyer's Slurm node {@code slurm} with a job of its own user's in its local partition
   * (all its cores, 15 minutes), so that the jobs {@link #queue} adds wait in the federated
   * partition; waits until it runs, and gives its id.
   */
  static String fill(Instance slurm) throws Exception {
    String filler = Users.sbatch(slurm, "--parsable", "-p", slurm.get("partition"), "-c", slurm.get("cpus"), "--mem=100M", "-t", "30",
        "-o", "/dev/null", "--wrap", "sleep 900");
    Eventually.waitFor(() -> "the buyer's own job " + filler + " to fill its node", Duration.ofMinutes(1), Duration.ofSeconds(1),
        () -> "RUNNING".equals(state(slurm, filler)));
    return filler;
  }

  /** Job {@code id}'s state in {@code slurm}'s queue ({@code squeue -o %T}), empty once it has left it. */
  static String state(Instance slurm, String id) {
    return Command.of(slurm.tool("squeue"), "-h", "-j", id, "-o", "%T").run().stdout().strip();
  }

  /**
   * Queues {@code jobs} jobs of {@code cores} cores and {@code memory} at the buyer's Slurm cluster
   * {@code slurm}, in its federated partition, of a minute's limit each (they sleep 20 s), as its
   * user would; their ids.
   */
  static List<String> queue(Instance slurm, int jobs, int cores, String memory) throws Exception {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < jobs; i++) {
      ids.add(Users.sbatch(slurm, "--parsable", "-p", slurm.get("federated.partition"), "-c", String.valueOf(cores), "--mem=" + memory, "-t",
          "1", "-o", "/dev/null", "--wrap", "sleep 20"));
    }
    return ids;
  }

  /**
   * Waits, until the slot's start, for {@code buyer} and {@code seller} to acknowledge one
   * contract, and checks it is the block {@code block} of this slot, bought and sold by them;
   * both sides' views by site.
   */
  Map<String, JsonNode> awaitAcknowledged(String buyer, String seller, String block) {
    Map<String, JsonNode> contract = awaitPhase(List.of(buyer, seller), "ACKNOWLEDGED", Duration.between(Instant.now(), start()));
    JsonNode bought = contract.get(buyer);
    JsonNode sold = contract.get(seller);
    assertEquals(bought.path("id").asText(), sold.path("id").asText(), "one contract, both sides: " + contract);
    assertEquals(List.of("buy", seller, "sell", buyer, start().toString(), block), List.of(bought.path("side").asText(),
        bought.path("counterparty").asText(), sold.path("side").asText(), sold.path("counterparty").asText(), bought.path("slotStart").asText(),
        bought.path("blockType").asText()), buyer + " bought the block of the slot from " + seller + ": " + contract);
    return contract;
  }

  /**
   * Follows {@code home}'s jobs {@code ids} from the slot's start until each is replayed at home, by
   * the slot's end at the latest, noting when {@code handedOver} first holds; the timeline, seconds
   * from the slot's start, with the steps before it in {@code before}. Then checks that each ran at
   * {@code seller}, was published only once the slot opened, and that the daemons logged the
   * buyer's publication into the block and the seller's pilots into it.
   */
  Map<String, Double> awaitRunInSlot(String home, String seller, List<String> ids, BooleanSupplier handedOver, Map<String, Double> before)
      throws Exception {
    Map<String, Double> timeline = new LinkedHashMap<>(before);
    Map<String, String> states = new TreeMap<>();
    Eventually.waitFor(() -> home + "'s jobs to run at " + seller + " in the slot and come back; states " + states + ", timeline " + timeline,
        Duration.between(Instant.now(), end()), Duration.ofMillis(250), () -> {
          if (!timeline.containsKey("handed over") && handedOver.getAsBoolean()) {
            timeline.put("handed over", since());
          }
          for (String id : ids) {
            String s = fed.job(home, id).path("state").asText("not published");
            if (!s.equals(states.put(id, s))) {
              timeline.put("job " + id + " " + s, since());
            }
          }
          return states.values().stream().allMatch("replayed"::equals);
        });
    System.out.println("[e2e] the slot's timeline, seconds from its start: " + timeline);
    assertTrue(timeline.containsKey("handed over"), seller + " handed the block to " + home + "'s pool account in the slot: " + timeline);
    for (String id : ids) {
      JsonNode view = fed.job(home, id);
      assertEquals(seller, view.path("executor").asText(), "job " + id + " ran at " + seller + ": " + view);
      assertTrue(timeline.entrySet().stream().filter(e -> e.getKey().startsWith("job " + id + " ") && !e.getKey().endsWith(" not published"))
          .allMatch(e -> e.getValue() >= 0), "job " + id + " was published only once the slot opened: " + timeline);
    }
    assertTrue(fed.logged(home, "decision=publish", "reason=bought-slot"), home + " published into the block it bought (decision=publish"
        + " reason=bought-slot, " + fed.logOf(home) + ")");
    assertTrue(fed.logged(seller, "decision=pilot", "reason=sold-slot"), seller + " sent its pilots into the block it sold (decision=pilot"
        + " reason=sold-slot, " + fed.logOf(seller) + ")");
    return timeline;
  }

  /** {@code site}'s ledger row, as it wrote it in ZooKeeper. */
  JsonNode ledgerRow(String site) throws Exception {
    try (CuratorFramework zk = operator().curator(fed.zk().connectString()).retryPolicy(new RetryOneTime(500)).build()) {
      zk.start();
      return JSON.readTree(zk.getData().forPath("/coalition/" + Federation.NAME + "/ledger/" + site));
    }
  }

  /** Checks that {@code buyer}'s ledger row pays {@code seller} the holding fee, half the sell price ({@code sold}'s), as {@code bought} names it. */
  void assertFeePaid(String buyer, String seller, JsonNode bought, JsonNode sold) throws Exception {
    JsonNode paid = ledgerRow(buyer).path("paid").path(seller);
    System.out.printf("[e2e] contract %s: price %.0f credit; %s paid %s %s%n", bought.path("id").asText(), bought.path("price").asDouble(),
        buyer, seller, paid);
    double fee = sold.path("price").asDouble() / 2;
    assertEquals(fee, bought.path("holdingFee").asDouble(), 1e-6, "the buyer's view names the fee, half the sell price: " + bought);
    assertEquals(fee, paid.path("sums").path("simpl").path("intercept").asDouble(), 1e-6,
        buyer + "'s ledger row pays " + seller + " the holding fee, half the sell price: " + paid);
  }

  private ZkTls operator() {
    return new ZkTls(fed.zk().identity(Identity.operator(Federation.NAME)), fed.zk().trustStore());
  }

  private static long ceil(long t, long grid) {
    return Math.floorDiv(t + grid - 1, grid) * grid;
  }
}
