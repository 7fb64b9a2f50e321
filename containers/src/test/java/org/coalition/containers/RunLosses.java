package org.coalition.containers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every run the federation lost during a soak, read from the daemons' logs, each laid against the
 * faults injected ({@link RandomFaults.Injected}). A run is lost when its executor kills it (the
 * executor's {@code decision=kill-run}: its claim is gone) or when its home requeues its job (the
 * home's {@code requeued JOB: claim N: EXECUTOR ...}: the executor gave it up, or lost its session
 * and did not take the claim back within the restart grace). A loss is explained only by a
 * cut-off of that executor: then its runs must be given up, and the homes requeue them within the
 * executor's session, the restart grace and a sweep after the link is back ({@code settle}), or
 * that long after the home's return when the home itself was restarted meanwhile (a restarted home
 * cannot know when the executor's session ended, so its restart grace starts again). Any
 * other loss, one during a restart of the executor's daemon above all, is unexplained. A result
 * the home rejects is unexplained too: every member here is honest. A claim the executor gives
 * back because its pilot never got the job ({@code decision=release ... reason=never-confirmed}:
 * the answer to the pilot was lost, the daemon having stopped or crashed meanwhile) cost no run:
 * its requeue is counted apart ({@link #unusedClaims}), not as a loss.
 */
final class RunLosses {
  /** Past a cut-off's end, how long the cut site's pilots may still learn that their claims are gone (a heartbeat or two). */
  private static final Duration KILL_SLACK = Duration.ofSeconds(30);
  private static final Pattern KILL = Pattern.compile("site=(\\S+) decision=kill-run job=(\\S+)");
  private static final Pattern REQUEUE = Pattern.compile("requeued (\\S+): claim \\d+: (\\S+) (.*)");
  private static final Pattern REJECT = Pattern.compile("rejected the result of (\\S+)");
  private static final Pattern UNUSED = Pattern.compile("site=(\\S+) decision=release job=(\\S+) reason=never-confirmed");

  /** One lost run: when, which job, at which executor, how it showed, and the fault that explains it, if any. */
  record Loss(long atMillis, String job, String executor, String how, Optional<RandomFaults.Injected> cause) {
    @Override
    public String toString() {
      return job + " at " + executor + " (" + how + ") " + cause.map(c -> "during the " + c).orElse("with no cut-off to explain it");
    }
  }

  private final List<Loss> losses = new ArrayList<>();
  private int unusedClaims;

  /**
   * Reads the executors' and the home's logs ({@code logs}, named SITE-daemon) from {@code
   * sinceMillis} on and explains each loss by the faults {@code injected}.
   */
  RunLosses(Logs logs, List<String> sites, String home, long sinceMillis, List<RandomFaults.Injected> injected, Duration settle) {
    Set<String> unused = new HashSet<>(); // executor + " " + job, for each claim given back unused and not yet requeued
    for (String site : sites) {
      for (String line : logs.lines(site + "-daemon", sinceMillis)) {
        Matcher u = UNUSED.matcher(line);
        if (u.find()) {
          unused.add(u.group(1) + " " + u.group(2));
        }
        Matcher k = KILL.matcher(line);
        if (k.find()) {
          long at = Logs.time(line);
          losses.add(new Loss(at, k.group(2), k.group(1), "killed by its executor", cutOff(injected, k.group(1), at, KILL_SLACK, null)));
        }
      }
    }
    for (String line : logs.lines(home + "-daemon", sinceMillis)) {
      long at = Logs.time(line);
      Matcher r = REQUEUE.matcher(line);
      if (r.find()) {
        if (r.group(3).startsWith("gave it up") && unused.remove(r.group(2) + " " + r.group(1))) {
          unusedClaims++;
        } else {
          losses.add(new Loss(at, r.group(1), r.group(2), "requeued by its home: " + r.group(2) + " " + r.group(3),
              cutOff(injected, r.group(2), at, settle, home)));
        }
      }
      Matcher j = REJECT.matcher(line);
      if (j.find()) {
        losses.add(new Loss(at, j.group(1), "?", "its result rejected by its home", Optional.empty()));
      }
    }
  }

  /** Requeues of claims their executors gave back because the pilot never got the job: no run was lost. */
  int unusedClaims() {
    return unusedClaims;
  }

  List<Loss> all() {
    return List.copyOf(losses);
  }

  List<Loss> unexplained() {
    return losses.stream().filter(l -> l.cause().isEmpty()).toList();
  }

  /**
   * The cut-off of {@code site} that {@code atMillis} falls in, if any: from its start to {@code
   * slack} after its end, or after the end of a restart of {@code home} (null: none counts) that
   * began within that time.
   */
  private static Optional<RandomFaults.Injected> cutOff(List<RandomFaults.Injected> injected, String site, long atMillis, Duration slack,
      String home) {
    return injected.stream().filter(i -> i.kind() == RandomFaults.Kind.CUT_OFF && i.target().equals(site))
        .filter(i -> atMillis >= i.fromMillis() && atMillis <= settled(injected, i, slack, home)).findFirst();
  }

  /** When the homes have settled after {@code cut}: {@code slack} after its end, or after the end of a restart of the home begun by then. */
  private static long settled(List<RandomFaults.Injected> injected, RandomFaults.Injected cut, Duration slack, String home) {
    long end = cut.toMillis() + slack.toMillis();
    for (RandomFaults.Injected r : injected) {
      boolean restart = r.kind() == RandomFaults.Kind.CRASH || r.kind() == RandomFaults.Kind.UPGRADE;
      if (restart && r.target().equals(home) && r.fromMillis() >= cut.fromMillis() && r.fromMillis() <= end) {
        end = Math.max(end, r.toMillis() + slack.toMillis());
      }
    }
    return end;
  }
}
