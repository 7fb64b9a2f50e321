package org.coalition.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for servers a test names before they bind: a daemon started in another process, a
 * ZooKeeper ensemble's configuration. Opening a socket on port 0 and closing it (the usual way)
 * lets two test JVMs draw the same port, and lets any outgoing connection take it before the
 * server binds (this machine kind's ephemeral range is 1024-65535). A port from here is neither:
 *
 * <ul>
 *   <li>it lies in {@value #FIRST}-{@value #LAST}, which {@code testbed/up} reserves from the kernel's
 *       ephemeral range ({@code net.ipv4.ip_local_reserved_ports}), so no outgoing connection is given it;
 *   <li>this JVM holds a lock on a file named after it in {@value #LOCKS} until it ends (the kernel
 *       releases the lock of a JVM that dies), so no other test JVM on the machine draws it, however many
 *       run side by side;
 *   <li>nothing listened on it when it was drawn.
 * </ul>
 *
 * A port is drawn once per JVM: a test that stops its server and starts it again keeps its port.
 */
public final class Ports {
  /** The first port of the range (testbed/lib/common.sh's TB_RESERVED_PORTS reserves the range). */
  public static final int FIRST = 18000;
  /** The last port of the range. */
  public static final int LAST = 18999;
  static final String LOCKS = "/tmp/coalition-test-ports";

  /** The ports this JVM holds, each with its lock. */
  private static final Map<Integer, FileLock> HELD = new HashMap<>();

  private Ports() {}

  /** A port no other test JVM holds and nothing listens on, held by this JVM until it ends. */
  public static synchronized int free() {
    try {
      Path dir = locks();
      int span = LAST - FIRST + 1;
      int start = ThreadLocalRandom.current().nextInt(span);
      for (int i = 0; i < span; i++) {
        int port = FIRST + (start + i) % span;
        if (HELD.containsKey(port)) {
          // never open a held port's file again: closing a second descriptor of a file drops the
          // process's lock on it (POSIX locks are the process's, not the descriptor's)
          continue;
        }
        FileLock lock = tryLock(dir.resolve(Integer.toString(port)));
        if (lock == null) {
          continue;
        }
        if (nothingListens(port)) {
          HELD.put(port, lock);
          return port;
        }
        lock.channel().close();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot draw a test port from " + LOCKS, e);
    }
    throw new IllegalStateException("every test port in " + FIRST + "-" + LAST + " is held or in use: stop what listens there");
  }

  /** {@code count} distinct ports, each as {@link #free()} draws it. */
  public static int[] free(int count) {
    int[] ports = new int[count];
    for (int i = 0; i < count; i++) {
      ports[i] = free();
    }
    return ports;
  }

  private static Path locks() throws IOException {
    Path dir = Path.of(LOCKS);
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(dir);
      // Tests run as root and as ordinary users; each may draw ports.
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    }
    return dir;
  }

  /** The lock on {@code file}, or null when another JVM holds it. */
  private static FileLock tryLock(Path file) throws IOException {
    FileChannel channel;
    try {
      channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    } catch (AccessDeniedException e) {
      return null; // another user's lock file: that user's JVM may hold it
    }
    try {
      FileLock lock = channel.tryLock();
      if (lock == null) {
        channel.close();
      }
      return lock;
    } catch (OverlappingFileLockException e) {
      channel.close();
      throw new IllegalStateException("this JVM already locks " + file + " outside Ports", e);
    }
  }

  private static boolean nothingListens(int port) {
    try (ServerSocket probe = new ServerSocket()) {
      probe.bind(new InetSocketAddress(InetAddress.getByName("0.0.0.0"), port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
