package org.coalition.condor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.Tool;

/**
 * A capacity contract's escrow on an HTCondor execute point (docs/decisions/0020). HTCondor has
 * no advance reservation; its admins keep slots for someone with the startd's policy, so this
 * writes, in a configuration file of its own (the last file of {@code config.d}), for each
 * reservation of whole execute points (their {@code Machine} names: the block's nodes, every slot
 * of each, partitionable or static) from start to end:
 *
 * <ul>
 *   <li>{@code START}: during the window only jobs of the admitted account start; before it, a job
 *       starts only if its {@code AllowedExecuteDuration} (submit's {@code allowed_execute_duration})
 *       says it ends before the window; a job that declares nothing starts;
 *   <li>{@code PREEMPT}: at the window's start, a job of anyone else still running there is
 *       vacated (vanilla jobs go back to idle and start again after the window, from the start).
 * </ul>
 *
 * Then {@code condor_reconfig}. Escrow admits the seller's holder account, hand-over the buyer's
 * pool account. The file is the reservations' only record: {@link #show} reads it back.
 */
public final class CondorReservations {
  private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,63}");
  private static final Pattern USER = Pattern.compile("[a-z_][a-z0-9_-]{0,31}");
  private static final Pattern MACHINE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,252}");
  private static final String RECORD = "# reservation ";
  private static final String HEADER = "# Written by the Coalition daemon: capacity contracts' reservations (docs/decisions/0020)."
      + " Keep this the last file\n# of config.d: it adds to START and PREEMPT as the files before it set them. Do not edit.\n";

  private final Path file;
  private final Tool reconfig;

  /** One reservation as the file holds it. */
  public record Reservation(String name, Instant start, Instant end, List<String> machines, String admits) {
    public Reservation {
      machines = List.copyOf(machines);
    }
  }

  /** Reservations in {@code file} (a path in the pool's {@code config.d}); {@code reconfig} runs {@code condor_reconfig}. */
  public CondorReservations(Path file, Tool reconfig) {
    this.file = file;
    this.reconfig = reconfig;
  }

  /** Keeps every slot of {@code machines} from {@code start} to {@code end} for {@code holder}'s jobs. */
  public synchronized Reservation escrow(String name, Instant start, Instant end, List<String> machines, String holder) {
    check(name, NAME, "reservation name");
    check(holder, USER, "holder account");
    machines.forEach(m -> check(m, MACHINE, "machine"));
    if (!end.isAfter(start) || machines.isEmpty()) {
      throw new IllegalArgumentException("reservation " + name + ": need start < end and at least one machine, were " + start + ", " + end
          + ", " + machines);
    }
    List<Reservation> all = read();
    if (all.stream().anyMatch(r -> r.name().equals(name))) {
      throw new HandlerException(Category.REJECTED, "reservation " + name + " exists already in " + file);
    }
    Reservation made = new Reservation(name, start, end, machines, holder);
    all.add(made);
    write(all);
    return made;
  }

  /** Admits {@code pool} alone (the buyer's pool account). */
  public synchronized Reservation handOver(String name, String pool) {
    check(name, NAME, "reservation name");
    check(pool, USER, "pool account");
    List<Reservation> all = read();
    for (int i = 0; i < all.size(); i++) {
      Reservation r = all.get(i);
      if (r.name().equals(name)) {
        Reservation handed = new Reservation(name, r.start(), r.end(), r.machines(), pool);
        all.set(i, handed);
        write(all);
        return handed;
      }
    }
    throw new HandlerException(Category.NOT_FOUND, "no reservation " + name + " in " + file);
  }

  public synchronized Optional<Reservation> show(String name) {
    return read().stream().filter(r -> r.name().equals(name)).findFirst();
  }

  /** Removes the reservation; false if the file had none of that name. */
  public synchronized boolean remove(String name) {
    List<Reservation> all = read();
    boolean removed = all.removeIf(r -> r.name().equals(name));
    if (removed) {
      write(all);
    }
    return removed;
  }

  /** The configuration text of {@code reservations}: its records, then each one's START and PREEMPT clauses. */
  static String text(List<Reservation> reservations) {
    StringBuilder out = new StringBuilder(HEADER);
    for (Reservation r : reservations) {
      long s = r.start().getEpochSecond();
      long e = r.end().getEpochSecond();
      String macro = "COALITION_RESERVATION_" + r.name();
      out.append('\n').append(RECORD).append(r.name()).append(' ').append(s).append(' ').append(e).append(' ')
          .append(String.join(",", r.machines())).append(' ').append(r.admits()).append('\n')
          .append(macro).append("_SLOTS = member(Machine, {\"").append(String.join("\", \"", r.machines())).append("\"})\n")
          .append(macro).append("_DURING = ((time() >= ").append(s).append(") && (time() < ").append(e).append("))\n")
          .append(macro).append("_ADMITS = (TARGET.Owner == \"").append(r.admits()).append("\")\n")
          .append("START = ($(START)) && (!$(").append(macro).append("_SLOTS) || $(").append(macro).append("_ADMITS) || (time() >= ")
          .append(e).append(") || ((time() < ").append(s).append(") && (time() + ifThenElse(isUndefined(TARGET.AllowedExecuteDuration), 0,"
              + " TARGET.AllowedExecuteDuration) <= ").append(s).append(")))\n")
          .append("PREEMPT = ($(PREEMPT)) || ($(").append(macro).append("_SLOTS) && $(").append(macro).append("_DURING) && !$(")
          .append(macro).append("_ADMITS))\n");
    }
    return out.toString();
  }

  /** The records of {@code text}; a line this class did not write is a corrupt file. */
  static List<Reservation> parse(String text, Path where) {
    List<Reservation> out = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.startsWith(RECORD)) {
        String[] w = line.substring(RECORD.length()).split(" ");
        try {
          List<String> machines = w.length == 5 ? List.of(w[3].split(",")) : List.of();
          if (w.length != 5 || !NAME.matcher(w[0]).matches() || !USER.matcher(w[4]).matches()
              || !machines.stream().allMatch(m -> MACHINE.matcher(m).matches())) {
            throw new NumberFormatException("fields");
          }
          out.add(new Reservation(w[0], Instant.ofEpochSecond(Long.parseLong(w[1])), Instant.ofEpochSecond(Long.parseLong(w[2])), machines,
              w[4]));
        } catch (NumberFormatException e) {
          throw new HandlerException(Category.PROTOCOL, where + ": a reservation line this daemon did not write: " + line
              + " (remove the file's broken lines, or the file, and run condor_reconfig)");
        }
      }
    }
    return out;
  }

  private List<Reservation> read() {
    if (Files.isSymbolicLink(file)) {
      throw new HandlerException(Category.REJECTED, file + " is a symbolic link: the daemon writes reservations only to a file of its own");
    }
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return new ArrayList<>();
    }
    try {
      return parse(Files.readString(file, StandardCharsets.UTF_8), file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private void write(List<Reservation> reservations) {
    Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
    try {
      Files.deleteIfExists(tmp);
      Files.writeString(tmp, text(reservations), StandardCharsets.UTF_8);
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new HandlerException(Category.UNAVAILABLE, "cannot write " + file + ": " + e.getMessage(), e);
    }
    reconfig.run(List.of(), null).requireSuccess("condor_reconfig after changing " + file, Category.UNAVAILABLE);
  }

  private static void check(String value, Pattern pattern, String what) {
    if (value == null || !pattern.matcher(value).matches()) {
      throw new IllegalArgumentException(what + " must match " + pattern + ", was " + value);
    }
  }
}
