package org.coalition.cli;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * One datagram to systemd's notification socket ({@code NOTIFY_SOCKET}, sd_notify(3)), sent by
 * this process itself through the C library (JNA): the JVM has no datagram Unix sockets, and a
 * helper process ({@code systemd-notify}) would need the unit to take notifications from every
 * process in it, the foreign jobs a local handler runs there included. With this, the unit says
 * {@code NotifyAccess=main}. Linux on 64-bit machines (size_t is a Java long).
 */
final class NotifySocket {
  private static final int AF_UNIX = 1;
  private static final int SOCK_DGRAM = 2;
  private static final int SOCK_CLOEXEC = 0x80000;
  private static final int MSG_NOSIGNAL = 0x4000;
  /** sockaddr_un: a 2-byte family, then at most 108 bytes of path. */
  private static final int PATH_MAX = 108;

  /** The few calls of the C library it needs; errors come back as {@link LastErrorException}. */
  interface LibC extends Library {
    int socket(int domain, int type, int protocol) throws LastErrorException;

    long sendto(int fd, byte[] message, long length, int flags, byte[] address, int addressLength) throws LastErrorException;

    int close(int fd) throws LastErrorException;
  }

  private static final class Holder {
    static final LibC C = Native.load("c", LibC.class);
  }

  private NotifySocket() {}

  /**
   * Sends {@code message} (lines of {@code KEY=VALUE}) to the socket {@code path}: a file's path,
   * or an abstract name written with a leading '@'.
   *
   * @throws IllegalArgumentException for a path that is not a socket's
   * @throws LastErrorException when the C library refuses
   */
  static void send(String path, String message) {
    byte[] address = address(path);
    byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
    LibC c = Holder.C;
    int fd = c.socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    try {
      c.sendto(fd, bytes, bytes.length, MSG_NOSIGNAL, address, address.length);
    } finally {
      c.close(fd);
    }
  }

  /** The sockaddr_un of {@code path}, exactly as long as it needs to be. */
  static byte[] address(String path) {
    if (path == null || path.isEmpty() || !(path.startsWith("/") || path.startsWith("@"))) {
      throw new IllegalArgumentException("NOTIFY_SOCKET '" + path + "' is neither an absolute path nor an abstract name ('@...')");
    }
    byte[] name = path.getBytes(StandardCharsets.UTF_8);
    boolean abstractName = name[0] == '@';
    if (abstractName) {
      name[0] = 0;
    }
    // a path ends with its NUL inside the 108 bytes; an abstract name counts exactly its bytes
    int length = name.length + (abstractName ? 0 : 1);
    if (length > PATH_MAX) {
      throw new IllegalArgumentException("NOTIFY_SOCKET is longer than a Unix socket's " + PATH_MAX + " bytes");
    }
    ByteBuffer address = ByteBuffer.allocate(2 + length).order(ByteOrder.nativeOrder());
    address.putShort((short) AF_UNIX).put(name);
    return address.array();
  }
}
