package org.coalition.daemon.base;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * A folder of the daemon's spool that only the daemon's user may enter (mode 0700), as its
 * journals keep them: made if missing, refused if others may enter it, and forced to disk after
 * a file in it is made, renamed or deleted, so that the change outlives a crash.
 */
public final class OwnerOnlyFolder {
  private OwnerOnlyFolder() {}

  /** Makes {@code dir} (mode 0700) if missing; a folder others may enter is refused, naming {@code what} it holds. */
  public static Path prepare(Path dir, String what) {
    try {
      if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      }
      Set<PosixFilePermission> modes = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
      if (modes.stream().anyMatch(m -> m.name().startsWith("GROUP") || m.name().startsWith("OTHERS"))) {
        throw new IllegalStateException("the " + what + " " + dir + " is open to others (" + PosixFilePermissions.toString(modes)
            + "); chmod 700 " + dir);
      }
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make the " + what + " " + dir + ": " + e.getMessage(), e);
    }
  }

  /**
   * Writes {@code bytes} to {@code name} in {@code dir} (mode 0600) whole or not at all: to a
   * hidden file first, forced to disk, then renamed over the old one, and the folder forced.
   */
  public static void writeAtomically(Path dir, String name, byte[] bytes) throws IOException {
    Path temp = dir.resolve("." + name + ".tmp");
    Files.deleteIfExists(temp);
    try (FileChannel out = FileChannel.open(temp, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        out.write(buffer);
      }
      out.force(true);
    }
    Files.move(temp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    force(dir);
  }

  /** Forces {@code dir}'s entries to disk (a file made, renamed or deleted in it). */
  public static void force(Path dir) throws IOException {
    try (FileChannel folder = FileChannel.open(dir, StandardOpenOption.READ)) {
      folder.force(true);
    }
  }
}
