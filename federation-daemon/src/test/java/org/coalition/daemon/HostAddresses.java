package org.coalition.daemon;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** This host's own addresses, for tests that reach it from an address other than loopback. */
public final class HostAddresses {
  private HostAddresses() {}

  /**
   * The IPv4 address of the interface this host's default route leaves by (eth0's here): not a
   * container bridge's, which the container tier, running beside, makes and takes down (a test
   * once picked 172.22.0.1 and could not bind it a moment later).
   */
  public static InetAddress outward() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/net/route"))) {
      String[] f = line.trim().split("\\s+");
      if (f.length > 2 && f[1].equals("00000000")) { // destination 0.0.0.0: a default route
        NetworkInterface nic = NetworkInterface.getByName(f[0]);
        Optional<InetAddress> a = nic == null ? Optional.empty() : nic.inetAddresses().filter(x -> x instanceof Inet4Address).findFirst();
        if (a.isPresent()) {
          return a.get();
        }
      }
    }
    throw new AssertionError("this host has no default route with an IPv4 address (/proc/net/route): the test needs one to reach itself from");
  }
}
