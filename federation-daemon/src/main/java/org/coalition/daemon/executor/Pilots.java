package org.coalition.daemon.executor;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.coalition.coordination.JobSpec;
import org.coalition.daemon.base.PeriodBudget;
import org.coalition.daemon.pilot.PilotService;
import org.coalition.handler.QueueObservation;

/**
 * The pilots this broker submitted and not yet forgot, each with the SHA-256 of its capability
 * token (24 random bytes; the token itself goes to the pilot and is not kept). A pilot's call is
 * honoured only with its own token, its hash compared in constant time.
 */
public final class Pilots {
  /**
   * What a pilot asks for beyond a job's own memory, for its own JVM, which runs in the same
   * allocation: the job keeps the memory its user asked for. A chosen allowance, not a measured one.
   */
  public static final long MEMORY_MARGIN_MB = 256;

  /** The memory a pilot for {@code j} asks for: the job's and its own, or 0 (the site's default) for a job that names none. */
  static long memoryFor(JobSpec j) {
    return j.memoryMb() == 0 ? 0 : j.memoryMb() + MEMORY_MARGIN_MB;
  }

  private final String site;
  private final Map<String, Pilot> byId = new ConcurrentHashMap<>();
  private final SecureRandom random = new SecureRandom();
  private long serial;

  Pilots(String site) {
    this.site = site;
  }

  /** A pilot and the token it was given, which only the pilot keeps. */
  record Issued(Pilot pilot, String token) {}

  /**
   * A new pilot shaped like {@code target}, to run as {@code account}, with its first token; it has
   * {@code target}'s time limit and {@code extraSeconds} more for further jobs ({@link org.coalition.daemon.base.PilotReuse}), in the
   * batch system's {@code reservation} ("" for none).
   */
  synchronized Issued create(String account, JobSpec target, long extraSeconds, long nowMillis, String reservation) {
    String id = site + "-" + (++serial) + "-" + Long.toHexString(random.nextInt() & 0xffffffL);
    String token = newToken();
    Pilot p = new Pilot(id, hash(token), account, target.cores(), target.memoryMb(), target.walltimeSeconds() + extraSeconds, extraSeconds,
        target.layout(), target.ref(), nowMillis, reservation);
    byId.put(p.id, p);
    return new Issued(p, token);
  }

  /** Takes back a pilot a restarted daemon's journal kept; new pilots are numbered after it. */
  synchronized void restore(Pilot p) {
    byId.put(p.id, p);
    String[] parts = p.id.split("-");
    if (parts.length >= 3 && parts[parts.length - 2].matches("[0-9]{1,18}")) {
      serial = Math.max(serial, Long.parseLong(parts[parts.length - 2]));
    }
  }

  /** A fresh token for {@code p}, which voids the one it had. */
  String renew(Pilot p) {
    String token = newToken();
    p.newToken(hash(token));
    return token;
  }

  /** 24 random bytes, in hex. */
  private synchronized String newToken() {
    byte[] secret = new byte[24];
    random.nextBytes(secret);
    return HexFormat.of().formatHex(secret);
  }

  static byte[] hash(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.US_ASCII));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  void forget(Pilot p) {
    byId.remove(p.id);
  }

  /**
   * The pilot {@code pilotId} if {@code token} is its token.
   *
   * @throws PilotService.PilotRefused for an unknown pilot or a wrong token (one message for both)
   */
  public Pilot check(String pilotId, String token) {
    Pilot p = pilotId == null ? null : byId.get(pilotId);
    if (p == null || token == null || !MessageDigest.isEqual(p.tokenHash(), hash(token))) {
      throw new PilotService.PilotRefused("unknown pilot or wrong token");
    }
    return p;
  }

  List<Pilot> all() {
    return List.copyOf(byId.values());
  }

  /** Pilots that have not asked for work yet. */
  public List<Pilot> waiting() {
    return byId.values().stream().filter(Pilot::waiting).toList();
  }

  /** Pilots that asked for work and wait for a job (none claimed for them yet). */
  List<Pilot> asking() {
    return byId.values().stream().filter(p -> p.phase() == PilotLifecycle.Phase.ASKED && p.claim() == null).toList();
  }

  /**
   * Local jobs waiting in {@code obs}: the batch system's pending jobs other than this broker's
   * pilots that have not asked yet (a held job or an orphaned pilot counts too).
   */
  public int localJobsWaiting(QueueObservation obs) {
    return Math.max(0, obs.pendingJobs() - waiting().size());
  }

  /** Pilots that hold a job or are being given one. */
  public long busy() {
    return byId.values().stream().filter(p -> p.phase() == PilotLifecycle.Phase.ASKED || PilotLifecycle.holdsJob(p.phase())).count();
  }

  /** Core-seconds {@code pilots} would take if each ran its whole time limit. */
  public static double coreSeconds(List<Pilot> pilots) {
    return pilots.stream().mapToDouble(p -> PeriodBudget.coreSeconds(p.cores, p.walltime)).sum();
  }

  /** Core-seconds of the receive allowance {@code pilots} hold for the jobs they were submitted for (their extra time holds none). */
  static double reserved(List<Pilot> pilots) {
    return pilots.stream().mapToDouble(p -> PeriodBudget.coreSeconds(p.cores, p.walltime - p.extraSeconds)).sum();
  }

  /** How many pilots are pending, running and done ({@link PilotLifecycle#countedAs}). */
  public Map<String, Integer> countsByState() {
    Map<String, Integer> out = new LinkedHashMap<>(Map.of("pending", 0, "running", 0));
    for (Pilot p : byId.values()) {
      out.merge(PilotLifecycle.countedAs(p.phase()), 1, Integer::sum);
    }
    return out;
  }
}
