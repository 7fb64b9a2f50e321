package org.coalition.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.sun.jna.Library;
import com.sun.jna.Native;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The notification datagram reaches a real Unix socket, as systemd's would receive it. */
class NotifySocketTest {
  /** The receiving side, as systemd has it: a bound datagram socket. */
  interface Receiver extends Library {
    Receiver C = Native.load("c", Receiver.class);

    int socket(int domain, int type, int protocol);

    int bind(int fd, byte[] address, int length);

    long recv(int fd, byte[] buffer, long length, int flags);

    int close(int fd);
  }

  @Test
  void aMessageArrivesWholeAtAPathSocketAndAtAnAbstractOne() throws Exception {
    Path dir = Files.createTempDirectory("notify");
    String path = dir.resolve("notify").toString();
    assertEquals("READY=1\nSTATUS=joined federation demo", receive(path, "READY=1\nSTATUS=joined federation demo"));
    String name = "@coalition-notify-test-" + ProcessHandle.current().pid();
    assertEquals("WATCHDOG=1", receive(name, "WATCHDOG=1"));
    Files.deleteIfExists(Path.of(path));
    Files.delete(dir);
  }

  private static String receive(String socketName, String message) {
    int fd = Receiver.C.socket(1, 2, 0);
    byte[] address = NotifySocket.address(socketName);
    assertEquals(0, Receiver.C.bind(fd, address, address.length), "bind " + socketName + ": errno " + Native.getLastError());
    try {
      NotifySocket.send(socketName, message);
      byte[] buffer = new byte[4096];
      long n = Receiver.C.recv(fd, buffer, buffer.length, 0);
      return new String(Arrays.copyOf(buffer, (int) n), StandardCharsets.UTF_8);
    } finally {
      Receiver.C.close(fd);
    }
  }

  @Test
  void anAbstractNameStartsWithNulAndAPathEndsWithIt() {
    byte[] abstractName = NotifySocket.address("@x");
    assertArrayEquals(new byte[] {0, 'x'}, Arrays.copyOfRange(abstractName, 2, abstractName.length));
    byte[] path = NotifySocket.address("/run/x");
    assertEquals(2 + "/run/x".length() + 1, path.length);
    assertEquals(0, path[path.length - 1]);
  }

  @Test
  void aSocketNameThatIsNoneIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> NotifySocket.address("relative/path"));
    assertThrows(IllegalArgumentException.class, () -> NotifySocket.address("/" + "a".repeat(200)));
  }
}
