package org.coalition.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetAddress;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Whom a connection counts toward: the share one client may hold is per IPv4 address and per IPv6 /64, loopback not held. */
class ConnectionsPerAddressTest {
  @Test
  void loopbackIsNotHeldWhateverItsAddress() throws Exception {
    for (String a : new String[] {"127.0.0.1", "127.3.4.5", "::1"}) {
      assertEquals(Optional.empty(), ConnectionsPerAddress.client(InetAddress.getByName(a)), a);
    }
  }

  @Test
  void anIpv4AddressIsAClientOfItsOwn() throws Exception {
    assertEquals(Optional.of("192.0.2.7"), ConnectionsPerAddress.client(InetAddress.getByName("192.0.2.7")));
    assertNotEquals(ConnectionsPerAddress.client(InetAddress.getByName("192.0.2.7")), ConnectionsPerAddress.client(InetAddress.getByName("192.0.2.8")));
    // an IPv4 address written as IPv6 is the same client
    assertEquals(Optional.of("192.0.2.7"), ConnectionsPerAddress.client(InetAddress.getByName("::ffff:192.0.2.7")));
  }

  @Test
  void anIpv6HostIsItsSlash64WhicheverOfItsAddressesItUses() throws Exception {
    Optional<String> one = ConnectionsPerAddress.client(InetAddress.getByName("2001:db8:1:2:aaaa::1"));
    assertEquals(Optional.of("2001:db8:1:2:0:0:0:0/64"), one);
    assertEquals(one, ConnectionsPerAddress.client(InetAddress.getByName("2001:db8:1:2:ffff:ffff:ffff:ffff")));
    assertNotEquals(one, ConnectionsPerAddress.client(InetAddress.getByName("2001:db8:1:3::1")));
  }

  @Test
  void aShareBelowOneIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new ConnectionsPerAddress(0));
  }
}
