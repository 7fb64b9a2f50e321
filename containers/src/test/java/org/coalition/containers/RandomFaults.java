package org.coalition.containers;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.coalition.testbed.Eventually;
import org.testcontainers.containers.Network;

/**
 * The faults of issue #23's soak, drawn at random from a seed and injected one at a time into the
 * running federation: each kind comes once in every round of six, in a shuffled order, at a
 * randomly chosen site or server (daemons are restarted each in turn, an executor once it runs a
 * foreign job), with 10 to 30 s of quiet between two. Every fault is healed
 * before the next begins, and what was injected when is kept ({@link Injected}) so that what
 * happened to the jobs can be laid against it.
 */
final class RandomFaults {
  /** The kinds of fault, each with how it is made. */
  enum Kind {
    /** A daemon killed with SIGKILL, then started on the same disk. */
    CRASH,
    /** A daemon stopped with SIGTERM, its jar replaced, started again. */
    UPGRADE,
    /** One ZooKeeper server stopped and started again. */
    ZOOKEEPER_RESTART,
    /** A site's slurmrestd stopped (SIGSTOP) for {@link #HELD}, then let go on. */
    SLURMRESTD_STOPPED,
    /** The disk an executor keeps outputs on filled up for {@link #HELD}, then emptied. */
    OUTPUT_DISK_FULL,
    /** A site's daemon taken off the federation's network for {@link #CUT}, then put back. */
    CUT_OFF
  }

  /**
   * One fault: what, where, when it began and ended (epoch millis), a note (a restart's figures),
   * and for a restart, how many running claims the restarted daemon adopted.
   */
  record Injected(Kind kind, String target, long fromMillis, long toMillis, String note, int claimsAdopted) {
    Injected(Kind kind, String target, long fromMillis, long toMillis) {
      this(kind, target, fromMillis, toMillis, "", 0);
    }

    @Override
    public String toString() {
      return String.format("%s of %s for %.0f s%s", kind.name().toLowerCase().replace('_', ' '), target, (toMillis - fromMillis) / 1e3,
          note.isEmpty() ? "" : " (" + note + ")");
    }
  }

  private static final Pattern ADOPTED = Pattern.compile("(\\d+) claims adopted");
  static final Duration HELD = Duration.ofSeconds(30);
  static final Duration CUT = Duration.ofSeconds(40);
  private static final List<String> EXECUTORS = List.of("south", "west");

  private final Random random;
  private final Map<String, SlurmSite> sites;
  private final Map<String, SiteApi> apis;
  private final ZooKeeperEnsemble zk;
  private final Network federation;
  private final Path jar;
  private final Logs logs;
  /** After a cut-off, the site is not restarted until its requeues are over, so that none is put down to the wrong fault. */
  private final Duration settle;
  private final Map<String, Long> quietUntil = new HashMap<>();
  private final List<Injected> injected = new ArrayList<>();
  private final List<Kind> round = new ArrayList<>();
  private final List<String> restartTurns = new ArrayList<>();

  /**
   * @param jar the daemon's jar an upgrade puts in place
   * @param settle how long after a cut-off the homes may still requeue the site's jobs (its session and the restart grace, and a sweep)
   */
  RandomFaults(long seed, Map<String, SlurmSite> sites, Map<String, SiteApi> apis, ZooKeeperEnsemble zk, Network federation, Path jar,
      Logs logs, Duration settle) {
    this.random = new Random(seed);
    this.sites = sites;
    this.apis = apis;
    this.zk = zk;
    this.federation = federation;
    this.jar = jar;
    this.logs = logs;
    this.settle = settle;
  }

  /** Injects faults one after another until {@code done} holds; returns what was injected. */
  List<Injected> runUntil(BooleanSupplier done) throws InterruptedException {
    while (!done.getAsBoolean()) {
      Thread.sleep(10_000 + random.nextInt(20_000));
      if (done.getAsBoolean()) {
        break;
      }
      Injected i = inject(next());
      injected.add(i);
      System.out.printf("[soak] fault %d: %s%n", injected.size(), i);
    }
    return List.copyOf(injected);
  }

  /** How many faults of each kind were injected. */
  Map<Kind, Integer> counts() {
    Map<Kind, Integer> counts = new EnumMap<>(Kind.class);
    injected.forEach(i -> counts.merge(i.kind(), 1, Integer::sum));
    return counts;
  }

  private Kind next() {
    if (round.isEmpty()) {
      round.addAll(List.of(Kind.values()));
      Collections.shuffle(round, random);
    }
    return round.remove(0);
  }

  private Injected inject(Kind kind) throws InterruptedException {
    long from = System.currentTimeMillis();
    return switch (kind) {
      case CRASH -> restart(kind, site -> sites.get(site).crashAndRestartDaemon());
      case UPGRADE -> restart(kind, site -> sites.get(site).upgradeDaemon(jar));
      case ZOOKEEPER_RESTART -> {
        int server = 1 + random.nextInt(3);
        zk.restart(server);
        yield new Injected(kind, "zk" + server, from, System.currentTimeMillis());
      }
      case SLURMRESTD_STOPPED -> {
        SlurmSite s = sites.get(any(List.copyOf(sites.keySet())));
        hold(HELD, s::freezeSlurmrestd, s::thawSlurmrestd);
        yield new Injected(kind, s.name, from, System.currentTimeMillis());
      }
      case OUTPUT_DISK_FULL -> {
        SlurmSite s = sites.get(any(EXECUTORS));
        hold(HELD, s::fillOutputDisk, s::emptyOutputDisk);
        yield new Injected(kind, s.name, from, System.currentTimeMillis());
      }
      case CUT_OFF -> {
        SlurmSite s = sites.get(any(List.copyOf(sites.keySet())));
        hold(CUT, () -> Engine.detach(s.daemon(), federation), () -> Engine.attach(s.daemon(), federation, s.name + "-daemon"));
        long to = System.currentTimeMillis();
        quietUntil.put(s.name, to + settle.toMillis());
        yield new Injected(kind, s.name, from, to);
      }
    };
  }

  /** Breaks something with {@code on}, waits {@code held}, and mends it with {@code off} whatever happens. */
  private static void hold(Duration held, Runnable on, Runnable off) throws InterruptedException {
    on.run();
    try {
      Thread.sleep(held.toMillis());
    } finally {
      off.run();
    }
  }

  /**
   * The next site whose daemon is restarted: each site in turn, in a shuffled order, so that every
   * daemon is restarted as often as the others; none whose cut-off's requeues may still come.
   */
  private String restartable() throws InterruptedException {
    while (true) {
      if (restartTurns.isEmpty()) {
        restartTurns.addAll(sites.keySet());
        Collections.shuffle(restartTurns, random);
      }
      long now = System.currentTimeMillis();
      for (String s : restartTurns) {
        if (quietUntil.getOrDefault(s, 0L) <= now) {
          restartTurns.remove(s);
          return s;
        }
      }
      Thread.sleep(1_000);
    }
  }

  /**
   * Restarts the next site's daemon ({@link #restartable}) with {@code restart}. An executor is
   * restarted once one of its pilots holds a claimed job (its daemon's status; waited for up to 60 s,
   * then restarted all the same): a restart that meets no run shows nothing of what it must not
   * kill. The note says how long the daemon took to join again (its "joined" log line, written once
   * it has taken its pilots back) and what it took back.
   */
  private Injected restart(Kind kind, Consumer<String> restart) throws InterruptedException {
    String site = restartable();
    if (EXECUTORS.contains(site)) {
      for (int waited = 0; waited < 60 && apis.get(site).runningPilots() <= 0; waited++) {
        Thread.sleep(1_000);
      }
    }
    long from = System.currentTimeMillis();
    String log = site + "-daemon";
    long joins = logs.count(log, " joined: ");
    long before = logs.count(log, "took back");
    restart.accept(site);
    Eventually.waitFor(() -> site + "'s restarted daemon to log that it joined", Duration.ofMinutes(2), Duration.ofMillis(500),
        () -> logs.count(log, " joined: ") > joins);
    double joined = (System.currentTimeMillis() - from) / 1e3;
    List<String> tookBack = logs.lines(log).stream().filter(l -> l.contains("took back")).toList();
    String what = tookBack.size() > before ? tookBack.get(tookBack.size() - 1).replaceAll(".*took back ", "took back ") : "no pilot to take back";
    Matcher adopted = ADOPTED.matcher(what);
    return new Injected(kind, site, from, System.currentTimeMillis(), String.format("joined again %.1f s after the fault began; %s",
        joined, what), adopted.find() ? Integer.parseInt(adopted.group(1)) : 0);
  }

  private String any(List<String> names) {
    return names.get(random.nextInt(names.size()));
  }
}
