package org.coalition.slurm;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.Tool;

/**
 * A capacity contract's escrow as a Slurm advance reservation (docs/decisions/0020): created for
 * the seller's own holder account, handed to the buyer's pool account on winning, removed on
 * losing. Through the site's {@code scontrol}, with the rights of the operator account the admin
 * grants the daemon: the slurmrestd versions Debian ships (v0.0.38 to v0.0.42) only read
 * reservations. Times go to and come from {@code scontrol} in UTC ({@code TZ=UTC}), whatever the
 * host's zone, to whole seconds.
 */
public final class SlurmReservations {
  /** Slurm's reservation, user and partition names, as this daemon writes them: nothing scontrol would split. */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");
  /** scontrol's words for a reservation that is not (or no longer) there. */
  private static final List<String> GONE = List.of("not found", "Requested reservation is invalid");

  private final Tool scontrol;

  /** A reservation as {@code scontrol show reservation} prints it. */
  public record Reservation(String name, Instant start, Instant end, String partition, String nodes, int nodeCount, List<String> users,
      String state) {
    public Reservation {
      users = List.copyOf(users);
    }
  }

  public SlurmReservations(List<String> scontrol, Duration timeout) {
    this.scontrol = new Tool(scontrol, Map.of("TZ", "UTC"), timeout);
  }

  /** Reserves {@code nodes} whole nodes of {@code partition} from {@code start} to {@code end} for {@code holder} alone. */
  public Reservation escrow(String name, Instant start, Instant end, String partition, int nodes, String holder) {
    check(name, "reservation name");
    check(partition, "partition");
    check(holder, "holder account");
    if (!end.isAfter(start) || nodes < 1) {
      throw new IllegalArgumentException("reservation " + name + ": need start < end and at least one node, were " + start + ", " + end
          + ", " + nodes + " nodes");
    }
    call("create reservation " + name, "create", "reservation", "ReservationName=" + name, "StartTime=" + format(start),
        "EndTime=" + format(end), "PartitionName=" + partition, "NodeCnt=" + nodes, "Users=" + holder);
    return show(name).orElseThrow(() -> new HandlerException(Category.PROTOCOL, "scontrol created reservation " + name
        + " but does not show it"));
  }

  /** Gives the reservation to {@code user} alone (the buyer's pool account). */
  public Reservation handOver(String name, String user) {
    check(name, "reservation name");
    check(user, "pool account");
    call("hand reservation " + name + " to " + user, "update", "ReservationName=" + name, "Users=" + user);
    return show(name).orElseThrow(() -> new HandlerException(Category.NOT_FOUND, "reservation " + name + " is gone after its update"));
  }

  /** The reservation, or empty when Slurm has none of that name (never made, removed, or ended and purged). */
  public Optional<Reservation> show(String name) {
    check(name, "reservation name");
    Tool.Result r = scontrol.run(List.of("show", "reservation", name, "--oneliner"), null);
    if (r.exitCode() != 0 && gone(r)) {
      return Optional.empty();
    }
    return Optional.of(parse(r.requireSuccess("show reservation " + name, category(r))));
  }

  /** Removes the reservation; false if it was already gone. */
  public boolean remove(String name) {
    check(name, "reservation name");
    Tool.Result r = scontrol.run(List.of("delete", "ReservationName=" + name), null);
    if (r.exitCode() != 0 && gone(r)) {
      return false;
    }
    r.requireSuccess("delete reservation " + name, category(r));
    return true;
  }

  /** One line of {@code scontrol show reservation --oneliner}: space-separated KEY=VALUE pairs. */
  static Reservation parse(String line) {
    Map<String, String> fields = new HashMap<>();
    for (String pair : line.strip().split("\\s+")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        fields.put(pair.substring(0, eq), pair.substring(eq + 1));
      }
    }
    try {
      String users = fields.getOrDefault("Users", "(null)");
      return new Reservation(required(fields, "ReservationName", line), parseTime(required(fields, "StartTime", line)),
          parseTime(required(fields, "EndTime", line)), fields.getOrDefault("PartitionName", "(null)"), fields.getOrDefault("Nodes", ""),
          Integer.parseInt(fields.getOrDefault("NodeCnt", "0")), "(null)".equals(users) ? List.of() : Arrays.asList(users.split(",")),
          fields.getOrDefault("State", "UNKNOWN"));
    } catch (DateTimeParseException | NumberFormatException e) {
      throw new HandlerException(Category.PROTOCOL, "scontrol show reservation printed what this daemon cannot read (" + e.getMessage()
          + "): " + line.strip());
    }
  }

  private static String required(Map<String, String> fields, String key, String line) {
    String value = fields.get(key);
    if (value == null) {
      throw new HandlerException(Category.PROTOCOL, "scontrol show reservation printed no " + key + ": " + line.strip());
    }
    return value;
  }

  private static Instant parseTime(String text) {
    return LocalDateTime.parse(text, TIME).toInstant(ZoneOffset.UTC);
  }

  private static String format(Instant t) {
    return TIME.format(t.truncatedTo(ChronoUnit.SECONDS).atOffset(ZoneOffset.UTC));
  }

  private void call(String what, String... args) {
    Tool.Result r = scontrol.run(List.of(args), null);
    r.requireSuccess(what, category(r));
  }

  private static boolean gone(Tool.Result r) {
    String said = r.stdout() + r.stderr();
    return GONE.stream().anyMatch(said::contains);
  }

  /** scontrol's own words: the controller not answering may pass; anything else is a refusal. */
  private static Category category(Tool.Result r) {
    String said = r.stdout() + r.stderr();
    if (said.contains("Unable to contact slurm controller") || said.contains("Socket timed out")) {
      return Category.UNAVAILABLE;
    }
    if (said.contains("Access/permission denied")) {
      return Category.AUTHENTICATION;
    }
    return Category.REJECTED;
  }

  private static void check(String value, String what) {
    if (value == null || !NAME.matcher(value).matches()) {
      throw new IllegalArgumentException(what + " must match " + NAME + " (nothing scontrol would split), was " + value);
    }
  }
}
