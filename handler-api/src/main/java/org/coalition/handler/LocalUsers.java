package org.coalition.handler;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The local accounts of this host, as its name service knows them ({@code getent passwd}: local
 * files, LDAP or SSSD alike), and which of them are ordinary users: at or above the system's
 * first ordinary uid ({@code UID_MIN} of {@code /etc/login.defs}, 1000 when it says none) and
 * not {@code nobody}. A job of an identity domain runs as its own user only if that user is one.
 */
public final class LocalUsers {
  /** What {@code /etc/login.defs} says when it names no {@code UID_MIN}. */
  static final int DEFAULT_UID_MIN = 1000;
  /** The overflow uid {@code nobody} has on Linux. */
  private static final int NOBODY = 65534;
  private static final Path LOGIN_DEFS = Path.of("/etc/login.defs");
  private static final long LOOKUP_SECONDS = 10;

  /** A local account: its name, uid and home directory. */
  public record User(String name, int uid, String home) {}

  private LocalUsers() {}

  /** {@code name}'s account here, if the name service knows it; empty too when it cannot be asked (no {@code getent}). */
  public static Optional<User> find(String name) {
    if (!Accounts.isName(name)) {
      return Optional.empty();
    }
    try {
      Process p = new ProcessBuilder("getent", "passwd", name).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      byte[] out = p.getInputStream().readNBytes(4096);
      if (!p.waitFor(LOOKUP_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return Optional.empty();
      }
      return p.exitValue() == 0 ? parse(name, new String(out, StandardCharsets.UTF_8)) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** A {@code passwd} line of {@code name} (name:password:uid:gid:gecos:home:shell), or empty when it is none. */
  static Optional<User> parse(String name, String line) {
    String[] f = line.strip().split(":", -1);
    if (f.length < 7 || !f[0].equals(name) || !f[2].matches("[0-9]{1,10}")) {
      return Optional.empty();
    }
    long uid = Long.parseLong(f[2]);
    return uid > Integer.MAX_VALUE ? Optional.empty() : Optional.of(new User(name, (int) uid, f[5]));
  }

  /** Whether {@code user} is an ordinary user here: not root, not a system account, not {@code nobody}. */
  public static boolean ordinary(User user, int uidMin) {
    return user.uid() >= uidMin && user.uid() != NOBODY && !user.name().equals("root");
  }

  /** Whether {@code name} is an ordinary user of this host ({@link #ordinary(User, int)} with this system's {@code UID_MIN}). */
  public static boolean ordinary(String name) {
    return find(name).map(u -> ordinary(u, uidMin())).orElse(false);
  }

  /** This system's first ordinary uid: {@code UID_MIN} in {@code /etc/login.defs}, or {@value #DEFAULT_UID_MIN}. */
  public static int uidMin() {
    try {
      return uidMin(Files.readAllLines(LOGIN_DEFS, StandardCharsets.UTF_8));
    } catch (IOException e) {
      return DEFAULT_UID_MIN;
    }
  }

  static int uidMin(List<String> loginDefs) {
    for (String line : loginDefs) {
      String[] w = line.strip().split("\\s+");
      if (w.length >= 2 && w[0].equals("UID_MIN") && w[1].matches("[0-9]{1,9}")) {
        return Integer.parseInt(w[1]);
      }
    }
    return DEFAULT_UID_MIN;
  }
}
