package org.coalition.api;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.coalition.handler.HandlerException;
import org.coalition.handler.Tool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who a local user is, from a MUNGE credential they made with {@code munge -n} (the way Slurm's
 * own commands prove a user to slurmctld): {@code unmunge} decodes it with the cluster's key,
 * which only hosts of the cluster's MUNGE domain hold. A credential decodes once (MUNGE refuses a
 * replay) and within its time to live (5 minutes by default), so one seen on the wire cannot be
 * used again.
 */
public final class MungeUsers {
  private static final Logger LOG = LoggerFactory.getLogger(MungeUsers.class);
  /** MUNGE's armour: {@code MUNGE:} then base64, then {@code :}; a few hundred bytes for an empty payload. */
  private static final Pattern CREDENTIAL = Pattern.compile("MUNGE:[A-Za-z0-9+/=]{16,2048}:");
  private static final Pattern STATUS = Pattern.compile("(?m)^STATUS:\\s+Success \\(0\\)\\s*$");
  private static final Pattern UID = Pattern.compile("(?m)^UID:\\s+([a-z_][a-z0-9_.-]{0,31}) \\(([0-9]+)\\)\\s*$");
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final List<String> unmunge;

  /** {@code unmunge}: the command that decodes a credential on its standard input (e.g. {@code [unmunge, --socket, PATH]}). */
  public MungeUsers(List<String> unmunge) {
    this.unmunge = List.copyOf(unmunge);
  }

  /** The user name a credential proves, or empty when it is malformed, expired, replayed, or made elsewhere. */
  public Optional<String> user(String credential) {
    if (credential == null || !CREDENTIAL.matcher(credential.strip()).matches()) {
      return Optional.empty();
    }
    Tool.Result r;
    try {
      r = new Tool(unmunge, Map.of(), TIMEOUT).run(List.of(), credential.strip() + "\n");
    } catch (HandlerException e) {
      LOG.warn("cannot check a user's MUNGE credential: {}", e.getMessage());
      return Optional.empty();
    }
    Matcher uid = UID.matcher(r.stdout());
    if (r.exitCode() != 0 || !STATUS.matcher(r.stdout()).find() || !uid.find()) {
      return Optional.empty();
    }
    return Optional.of(uid.group(1));
  }
}
