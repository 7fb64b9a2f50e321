package org.coalition.api;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which Host headers name the daemon (ApiAbuseIT sends them over real sockets). */
class ServedNamesTest {
  private final ServedNames names = new ServedNames("127.0.0.1", "https://north.example.org:8443/");

  @Test
  void addressesLocalhostAndTheAdvertisedNameAreServed() {
    for (String host : List.of("localhost", "LocalHost:8443", "127.0.0.1", "127.0.0.1:8443", "[::1]:8443", "::1", "10.1.2.3",
        "north.example.org", "NORTH.example.org.:8443", "app.localhost")) {
      assertTrue(names.serves(host), host);
    }
    assertTrue(names.serves(null), "no Host header (HTTP/1.0)");
  }

  @Test
  void anotherNameIsNot() {
    for (String host : List.of("attacker.example", "attacker.example:8443", "127.0.0.1.attacker.example", "north.example.org.attacker.example",
        "256.1.1.1", "1.2.3", "localhost.attacker.example", "[attacker.example]")) {
      assertFalse(names.serves(host), host);
    }
  }
}
