package org.coalition.slurm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.coalition.handler.Accounts;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;

/**
 * The JWT slurmrestd passes on to slurmctld ({@code X-SLURM-USER-NAME}, {@code X-SLURM-USER-TOKEN}).
 * Two sources: a token file an admin refreshes ({@code scontrol token}), read again whenever it
 * changes; or the cluster's JWT key ({@code AuthAltParameters=jwt_key=...}), with which the handler
 * signs short-lived tokens itself, for any local user, and signs a new one before the old expires.
 */
public abstract sealed class SlurmCredentials permits SlurmCredentials.TokenFile, SlurmCredentials.Key {
  /** A user name and the token to send for it. */
  public record Token(String user, String token) {}

  /** The token to act as {@code user}. */
  public abstract Token forUser(String user);

  /** A token file for one user (the file holds the token, or a {@code SLURM_JWT=} line as {@code scontrol token} prints). */
  public static SlurmCredentials tokenFile(String user, Path file) {
    return new TokenFile(user, file);
  }

  /** Tokens signed with the cluster's key, valid for {@code lifespan}, renewed when a fifth of it is left. */
  public static SlurmCredentials key(Path keyFile, Duration lifespan, Clock clock) {
    return new Key(keyFile, lifespan, clock);
  }

  static final class TokenFile extends SlurmCredentials {
    private final String user;
    private final Path file;
    private volatile String token;
    private volatile long modified = Long.MIN_VALUE;

    TokenFile(String user, Path file) {
      this.user = user;
      this.file = file;
    }

    @Override
    public Token forUser(String asUser) {
      if (!asUser.equals(user)) {
        throw new HandlerException(Category.AUTHENTICATION, "the token file " + file + " is for user " + user + ", not " + asUser
            + "; give the handler the cluster's JWT key to act as several users");
      }
      try {
        long m = Files.getLastModifiedTime(file).toMillis();
        if (m != modified || token == null) {
          String text = Files.readString(file, StandardCharsets.UTF_8).trim();
          if (text.startsWith("SLURM_JWT=")) {
            text = text.substring("SLURM_JWT=".length());
          }
          if (text.isEmpty() || text.contains("\n")) {
            throw new HandlerException(Category.AUTHENTICATION, "token file " + file + " must hold one token (as `scontrol token` prints it)");
          }
          token = text;
          modified = m;
        }
        return new Token(user, token);
      } catch (IOException e) {
        throw new HandlerException(Category.AUTHENTICATION, "cannot read token file " + file + ": " + e.getMessage(), e);
      }
    }
  }

  static final class Key extends SlurmCredentials {
    private final byte[] key;
    private final Duration lifespan;
    private final Clock clock;
    private final Map<String, Signed> cache = new ConcurrentHashMap<>();

    private record Signed(String token, long renewAt) {}

    Key(Path keyFile, Duration lifespan, Clock clock) {
      if (lifespan.compareTo(Duration.ofMinutes(1)) < 0) {
        throw new IllegalArgumentException("token lifespan must be at least 1 minute, was " + lifespan);
      }
      try {
        this.key = Files.readAllBytes(keyFile);
      } catch (IOException e) {
        throw new HandlerException(Category.AUTHENTICATION, "cannot read the Slurm JWT key " + keyFile + ": " + e.getMessage()
            + " (it is the file named by AuthAltParameters=jwt_key in slurm.conf; the daemon's user must be able to read it)", e);
      }
      if (key.length < 16) {
        throw new HandlerException(Category.AUTHENTICATION, "the Slurm JWT key " + keyFile + " has " + key.length + " bytes; Slurm needs a longer key");
      }
      this.lifespan = lifespan;
      this.clock = clock;
    }

    @Override
    public Token forUser(String user) {
      if (!Accounts.isName(user)) {
        throw new HandlerException(Category.REJECTED, "'" + user + "' is not a valid local user name");
      }
      long now = clock.millis();
      Signed s = cache.get(user);
      if (s == null || now >= s.renewAt()) {
        long iat = now / 1000;
        long exp = iat + lifespan.toSeconds();
        s = new Signed(sign(user, iat, exp), now + lifespan.toMillis() * 4 / 5);
        cache.put(user, s);
      }
      return new Token(user, s.token());
    }

    private String sign(String user, long iat, long exp) {
      Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
      String header = b64.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
      String claims = b64.encodeToString(("{\"exp\":" + exp + ",\"iat\":" + iat + ",\"sun\":\"" + user + "\"}").getBytes(StandardCharsets.UTF_8));
      try {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        byte[] sig = mac.doFinal((header + "." + claims).getBytes(StandardCharsets.US_ASCII));
        return header + "." + claims + "." + b64.encodeToString(sig);
      } catch (GeneralSecurityException e) {
        throw new HandlerException(Category.INTERNAL, "signing a Slurm token: " + e, e);
      }
    }
  }
}
