package org.coalition.containers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.coalition.testbed.Command;

/**
 * A small file system of its own on the host (a tmpfs of {@code megabytes}), for a container to
 * keep a folder on that a test can fill up: a disk that really refuses writes, as a full one
 * does, and that outlives the container's restarts (a tmpfs of the engine's own goes with its
 * container). Mounting needs root, as the tier does.
 */
final class SmallDisk implements AutoCloseable {
  private static final Path MOUNT = Path.of("/usr/bin/mount");
  private static final Path UMOUNT = Path.of("/usr/bin/umount");
  final Path dir;

  SmallDisk(String name, int megabytes) {
    try {
      dir = Files.createTempDirectory("coalition-" + name + "-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Command.Result r = Command.of(MOUNT, "-t", "tmpfs", "-o", "size=" + megabytes + "m,mode=0700", "tmpfs", dir.toString())
        .timeout(Duration.ofSeconds(30)).run();
    if (r.exitCode() != 0) {
      throw new IllegalStateException("cannot mount a " + megabytes + " MiB tmpfs on " + dir + " (the container tier runs as root): "
          + r.describe());
    }
  }

  @Override
  public void close() {
    Command.of(UMOUNT, "--lazy", dir.toString()).timeout(Duration.ofSeconds(30)).run();
    try {
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      // still mounted: docker/down's next run finds nothing of it that matters
    }
  }
}
