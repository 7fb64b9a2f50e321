package org.coalition.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.coalition.handler.config.ConfigSection;
import org.coalition.handler.config.Node;
import org.coalition.policy.contracts.BlockType;
import org.coalition.policy.contracts.SealedBid;

/**
 * Reads a site file's {@code contracts:} block (docs/site-file.md) into {@link ContractsSettings},
 * every problem reported with its line: block types that do not say their cores, hours outside a
 * day, a block type offered twice on one side, or offered on both (a site that would sell a block
 * it also wants only keeps it; docs/decisions/0020, "One bid is one block on one side").
 */
final class ContractsReader {
  private static final String EXAMPLE = "sell: [{type: batch.cpu16x2, hours: [0-6, 22-23], per-day: 4}]";

  private ContractsReader() {}

  /** The block under {@code node} (null: {@link ContractsSettings#NONE}) of file {@code file}. */
  static ContractsSettings read(String file, Node node, List<String> problems) {
    if (node == null || node.value() == null) {
      return ContractsSettings.NONE;
    }
    ConfigSection c = ConfigSection.of(file, "contracts", node, problems);
    boolean enabled = c.flag("enabled", false);
    boolean approval = c.flag("approval", false);
    List<ContractsSettings.Offer> sell = offers(file, c, "sell", problems);
    List<ContractsSettings.Offer> buy = offers(file, c, "buy", problems);
    c.rejectUnknown();
    Set<String> sold = new HashSet<>();
    sell.forEach(o -> sold.add(o.type()));
    for (ContractsSettings.Offer o : buy) {
      if (sold.contains(o.type())) {
        c.problem("buy", "block type " + o.type() + " is offered for sale too: a site bids on one side of a block type only"
            + " (keep the block rather than buy it); remove it from sell or from buy");
      }
    }
    if (enabled && sell.isEmpty() && buy.isEmpty()) {
      c.problem("enabled", "is true but nothing is offered: add sell or buy entries, e.g. " + EXAMPLE);
    }
    return new ContractsSettings(enabled, approval, sell, buy);
  }

  private static List<ContractsSettings.Offer> offers(String file, ConfigSection c, String side, List<String> problems) {
    List<ContractsSettings.Offer> out = new ArrayList<>();
    Node n = c.node(side);
    if (n == null || n.value() == null) {
      return out;
    }
    if (!(n.value() instanceof List<?> list)) {
      c.problem(side, "must be a list of blocks, e.g. " + EXAMPLE);
      return out;
    }
    Set<String> types = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      ConfigSection o = ConfigSection.of(file, "contracts." + side + "[" + i + "]", (Node) list.get(i), problems);
      int before = problems.size();
      String type = o.string("type", "", true);
      String typeProblem = type.isEmpty() ? null : BlockType.problem(type);
      if (typeProblem != null) {
        o.problem("type", typeProblem);
      } else if (!type.isEmpty() && !types.add(type)) {
        o.problem("type", "block type " + type + " is listed twice under " + side + "; give each its hours in one entry");
      }
      Set<Integer> hours = hours(o);
      int perDay = o.integer("per-day", 1, 1, 24 * 60);
      long limit = (long) o.number("limit", 0, 0, SealedBid.MAX_PRICE);
      o.rejectUnknown();
      if (problems.size() == before) {
        out.add(new ContractsSettings.Offer(type, hours, perDay, limit));
      }
    }
    return out;
  }

  /** {@code hours}: UTC hours and ranges of hours ({@code [0-6, 22-23]}); every hour of the day when absent. */
  private static Set<Integer> hours(ConfigSection o) {
    List<String> words = o.words("hours", List.of("0-23"), "UTC hours of the day", "[0-6, 22-23]");
    Set<Integer> hours = new TreeSet<>();
    for (String w : words) {
      String[] ends = w.split("-", -1);
      try {
        int from = Integer.parseInt(ends[0].trim());
        int to = ends.length == 2 ? Integer.parseInt(ends[1].trim()) : from;
        if (ends.length > 2 || from < 0 || to > 23 || from > to) {
          throw new NumberFormatException(w);
        }
        for (int h = from; h <= to; h++) {
          hours.add(h);
        }
      } catch (NumberFormatException e) {
        o.problem("hours", "'" + w + "' is not an hour 0-23 or a range of them such as 22-23 (UTC)");
      }
    }
    return hours;
  }
}
