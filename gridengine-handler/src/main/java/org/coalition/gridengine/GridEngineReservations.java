package org.coalition.gridengine;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.Tool;
import org.w3c.dom.Element;

/**
 * A capacity contract's escrow as a Grid Engine advance reservation (docs/decisions/0020). Grid
 * Engine 8.1.9 cannot change an AR once granted (there is no {@code qralter}), so the AR admits
 * the members of an access list of its own, named as the reservation: escrow puts the seller's
 * holder account in it ({@code qconf -au}) and submits the AR ({@code qrsub -u @LIST}); handing
 * over replaces the list's entries with the buyer's pool account, and the AR's slots stay reserved
 * throughout; removal deletes the AR ({@code qrdel}) and its list. Needs a Grid Engine manager or
 * operator account (or one in {@code arusers}). Times in UTC ({@code TZ=UTC}), to whole seconds.
 */
public final class GridEngineReservations {
  /** Names this daemon gives ARs and their access lists: Grid Engine's object names, nothing it would split. */
  private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,63}");
  private static final Pattern USER = Pattern.compile("[a-z_][a-z0-9_-]{0,31}");
  private static final Pattern GRANTED = Pattern.compile("Your advance reservation (\\d+) has been granted");
  private static final DateTimeFormatter SUBMIT_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmm.ss");

  private final Tool qconf;
  private final Tool qrsub;
  private final Tool qrstat;
  private final Tool qrdel;

  /** A granted AR as {@code qrstat -ar ID -xml} shows it; {@code admits} are its access lists' and users' names. */
  public record Reservation(long id, String name, Instant start, Instant end, String state, List<String> admits, int slots) {
    public Reservation {
      admits = List.copyOf(admits);
    }
  }

  /** The tools beside {@code qconf} (its wrappers kept), all with {@code TZ=UTC}. */
  public GridEngineReservations(Tool qconf) {
    Map<String, String> env = new HashMap<>(qconf.environment());
    env.put("TZ", "UTC");
    this.qconf = new Tool(qconf.argv(), env, qconf.timeout());
    this.qrsub = GridEngineHome.beside(this.qconf, "qrsub");
    this.qrstat = GridEngineHome.beside(this.qconf, "qrstat");
    this.qrdel = GridEngineHome.beside(this.qconf, "qrdel");
  }

  /** Reserves {@code slots} of {@code pe} from {@code start} to {@code end} for {@code holder} alone. */
  public Reservation escrow(String name, Instant start, Instant end, String pe, int slots, String holder) {
    check(name, NAME, "reservation name");
    check(pe, NAME, "parallel environment");
    check(holder, USER, "holder account");
    if (!end.isAfter(start) || slots < 1) {
      throw new IllegalArgumentException("reservation " + name + ": need start < end and at least one slot, were " + start + ", " + end
          + ", " + slots + " slots");
    }
    qconf.run(List.of("-au", holder, name), null).requireSuccess("make access list " + name, Category.REJECTED);
    Tool.Result r = qrsub.run(List.of("-a", SUBMIT_TIME.format(start.atOffset(ZoneOffset.UTC)), "-e", SUBMIT_TIME.format(end.atOffset(
        ZoneOffset.UTC)), "-pe", pe, String.valueOf(slots), "-u", "@" + name, "-N", name), null);
    Matcher granted = GRANTED.matcher(r.stdout());
    if (r.exitCode() != 0 || !granted.find()) {
      qconf.run(List.of("-dul", name), null);
      r.requireSuccess("reserve " + slots + " slots of " + pe + " as " + name, Category.REJECTED);
      throw new HandlerException(Category.PROTOCOL, "qrsub granted no reservation for " + name + ": " + r.stdout().strip());
    }
    return show(name).orElseThrow(() -> new HandlerException(Category.PROTOCOL, "qrsub granted " + name + " but qrstat does not show it"));
  }

  /** Admits {@code pool} alone (the buyer's pool account) to the reservation's slots. */
  public Reservation handOver(String name, String pool) {
    check(name, NAME, "reservation name");
    check(pool, USER, "pool account");
    String list = qconf.run(List.of("-su", name), null).requireSuccess("read access list " + name, Category.NOT_FOUND);
    if (!entries(list).contains(pool)) { // a hand-over tried again finds it admitted already
      qconf.run(List.of("-au", pool, name), null).requireSuccess("admit " + pool + " to " + name, Category.REJECTED);
    }
    for (String entry : entries(list)) {
      if (!entry.equals(pool)) {
        qconf.run(List.of("-du", entry, name), null).requireSuccess("remove " + entry + " from " + name, Category.REJECTED);
      }
    }
    return show(name).orElseThrow(() -> new HandlerException(Category.NOT_FOUND, "reservation " + name + " is gone"));
  }

  /** Admits {@code user} too, beside those the list admits already. */
  public void admit(String name, String user) {
    check(name, NAME, "reservation name");
    check(user, USER, "account");
    if (!admitted(name).contains(user)) {
      qconf.run(List.of("-au", user, name), null).requireSuccess("admit " + user + " to " + name, Category.REJECTED);
    }
  }

  /** Who the reservation's access list admits now. */
  public List<String> admitted(String name) {
    check(name, NAME, "reservation name");
    return entries(qconf.run(List.of("-su", name), null).requireSuccess("read access list " + name, Category.NOT_FOUND));
  }

  /** The reservation of that name, or empty when there is none (never made, removed, or ended). */
  public Optional<Reservation> show(String name) {
    check(name, NAME, "reservation name");
    Tool.Result all = qrstat.run(List.of("-xml"), null);
    Element root = QstatXml.parse(all.requireSuccess("list reservations", Category.UNAVAILABLE), "qrstat -xml", "qrstat");
    for (Element summary : QstatXml.children(root, "ar_summary")) {
      if (name.equals(QstatXml.text(summary, "name"))) {
        long id = QstatXml.number(summary, "id");
        Tool.Result one = qrstat.run(List.of("-ar", String.valueOf(id), "-xml"), null);
        if (one.exitCode() != 0 && one.stdout().contains("<ar_unknown>")) {
          return Optional.empty(); // it went between the two looks (a released AR goes once its jobs have)
        }
        String xml = one.requireSuccess("show reservation " + id, Category.NOT_FOUND);
        return Optional.of(parse(QstatXml.parse(xml, "qrstat -ar " + id + " -xml", "qrstat")));
      }
    }
    return Optional.empty();
  }

  /** Deletes the reservation and its access list; false if there was no reservation. */
  public boolean remove(String name) {
    Optional<Reservation> ar = show(name);
    ar.ifPresent(r -> qrdel.run(List.of(String.valueOf(r.id())), null).requireSuccess("delete reservation " + r.id(), Category.REJECTED));
    qconf.run(List.of("-dul", name), null);
    return ar.isPresent();
  }

  static Reservation parse(Element root) {
    List<Element> found = QstatXml.children(root, "ar_summary");
    if (found.isEmpty()) {
      throw new HandlerException(Category.PROTOCOL, "qrstat -ar printed no <ar_summary>");
    }
    Element ar = found.get(0);
    List<String> admits = new ArrayList<>();
    for (Element list : QstatXml.children(ar, "acl_list")) {
      for (Element acl : QstatXml.children(list, "acl")) {
        admits.add(acl.getAttribute("user"));
      }
    }
    int slots = 0;
    for (Element pe : QstatXml.children(ar, "granted_parallel_environment")) {
      slots += QstatXml.number(pe, "slots");
    }
    try {
      return new Reservation(QstatXml.number(ar, "id"), QstatXml.text(ar, "name"), time(QstatXml.text(ar, "start_time")),
          time(QstatXml.text(ar, "end_time")), QstatXml.text(ar, "state"), admits, slots);
    } catch (DateTimeParseException e) {
      throw new HandlerException(Category.PROTOCOL, "qrstat printed a time this daemon cannot read: " + e.getParsedString());
    }
  }

  /** The users of {@code qconf -su}'s {@code entries} line (comma separated; NONE when empty). */
  static List<String> entries(String list) {
    for (String line : list.split("\n")) {
      String[] words = line.strip().split("\\s+", 2);
      if (words.length == 2 && words[0].equals("entries")) {
        return "NONE".equals(words[1].strip()) ? List.of() : List.of(words[1].strip().split("\\s*,\\s*"));
      }
    }
    return List.of();
  }

  private static Instant time(String text) {
    return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
  }

  private static void check(String value, Pattern pattern, String what) {
    if (value == null || !pattern.matcher(value).matches()) {
      throw new IllegalArgumentException(what + " must match " + pattern + ", was " + value);
    }
  }
}
