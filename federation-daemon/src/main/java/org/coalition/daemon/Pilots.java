package org.coalition.daemon;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.coalition.coordination.JobSpec;

/**
 * The pilots this broker submitted and not yet forgot, each with its capability token (24 random
 * bytes). A pilot's call is honoured only with its own token, compared in constant time.
 */
final class Pilots {
  private final String site;
  private final Map<String, Pilot> byId = new ConcurrentHashMap<>();
  private final SecureRandom random = new SecureRandom();
  private long serial;

  Pilots(String site) {
    this.site = site;
  }

  /** A new pilot shaped like {@code target}, to run as {@code account}. */
  synchronized Pilot create(String account, JobSpec target, long nowMillis) {
    String id = site + "-" + (++serial) + "-" + Long.toHexString(random.nextInt() & 0xffffffL);
    Pilot p = new Pilot(id, newToken(), account, target.cores(), target.walltimeSeconds(), target.ref(), nowMillis);
    byId.put(p.id, p);
    return p;
  }

  /** 24 random bytes, in hex. */
  synchronized String newToken() {
    byte[] secret = new byte[24];
    random.nextBytes(secret);
    return HexFormat.of().formatHex(secret);
  }

  void forget(Pilot p) {
    byId.remove(p.id);
  }

  /**
   * The pilot {@code pilotId} if {@code token} is its token.
   *
   * @throws PilotService.PilotRefused for an unknown pilot or a wrong token (one message for both)
   */
  Pilot check(String pilotId, String token) {
    Pilot p = pilotId == null ? null : byId.get(pilotId);
    if (p == null || token == null
        || !MessageDigest.isEqual(p.token.getBytes(StandardCharsets.US_ASCII), token.getBytes(StandardCharsets.US_ASCII))) {
      throw new PilotService.PilotRefused("unknown pilot or wrong token");
    }
    return p;
  }

  List<Pilot> all() {
    return List.copyOf(byId.values());
  }

  /** Pilots that have not asked for work yet. */
  List<Pilot> waiting() {
    return byId.values().stream().filter(Pilot::waiting).toList();
  }

  /** How many pilots are pending, running and done ({@link PilotLifecycle#countedAs}). */
  Map<String, Integer> countsByState() {
    Map<String, Integer> out = new LinkedHashMap<>(Map.of("pending", 0, "running", 0));
    for (Pilot p : byId.values()) {
      out.merge(PilotLifecycle.countedAs(p.phase()), 1, Integer::sum);
    }
    return out;
  }
}
