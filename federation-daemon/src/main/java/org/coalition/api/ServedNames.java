package org.coalition.api;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The names a request's {@code Host} header may give when the daemon's loopback openness (reads
 * on its own host need no token, as {@code squeue}'s) lets it in: an address, {@code localhost},
 * this machine's own names, the address the API binds and its advertised endpoint's host. A web
 * page from elsewhere whose name an attacker re-points at 127.0.0.1 (DNS rebinding) reaches the
 * daemon from loopback with that page's name in {@code Host}, and is refused: the browser would
 * otherwise hand the page whatever the daemon serves its own host.
 */
final class ServedNames {
  private final Set<String> names = new HashSet<>();

  /** {@code bind}: the address the API listens on; {@code endpoint}: the URL the site advertises (may be empty). */
  ServedNames(String bind, String endpoint) {
    names.add("localhost");
    names.add(normal(bind));
    if (endpoint != null && !endpoint.isBlank()) {
      try {
        String host = URI.create(endpoint).getHost();
        if (host != null) {
          names.add(normal(host));
        }
      } catch (IllegalArgumentException e) {
        // the site file's check reports a bad endpoint; here it adds no name
      }
    }
    try {
      InetAddress self = InetAddress.getLocalHost();
      names.add(normal(self.getHostName()));
      names.add(normal(self.getCanonicalHostName()));
    } catch (UnknownHostException e) {
      // a machine without a resolvable name of its own is reached by address or as localhost
    }
  }

  /**
   * Whether {@code host} (a Host header: a name or address, maybe with a port) names this daemon.
   * No header (HTTP/1.0, which no browser sends any more) is taken as this host.
   */
  boolean serves(String host) {
    if (host == null || host.isEmpty()) {
      return true;
    }
    String name = normal(withoutPort(host));
    return names.contains(name) || name.endsWith(".localhost") || isAddress(name);
  }

  private static String withoutPort(String host) {
    if (host.startsWith("[")) {
      int end = host.indexOf(']');
      return end < 0 ? host : host.substring(1, end);
    }
    int colon = host.lastIndexOf(':');
    return colon >= 0 && host.indexOf(':') == colon ? host.substring(0, colon) : host;
  }

  /**
   * An IPv4 literal of four decimal parts, or an IPv6 literal: an address, which no DNS answer
   * re-points. By hand: Java 17 has no literal check that never asks DNS ({@code InetAddress.ofLiteral}
   * came in 22), and this module has no library with one.
   */
  private static boolean isAddress(String name) {
    if (name.contains(":")) {
      return name.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':' || c == '.' || c == '%');
    }
    String[] parts = name.split("\\.", -1);
    if (parts.length != 4) {
      return false;
    }
    for (String p : parts) {
      if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(Character::isDigit) || Integer.parseInt(p) > 255) {
        return false;
      }
    }
    return true;
  }

  private static String normal(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return n.endsWith(".") ? n.substring(0, n.length() - 1) : n;
  }
}
