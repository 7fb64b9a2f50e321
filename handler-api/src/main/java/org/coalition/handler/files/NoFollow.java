package org.coalition.handler.files;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * File work a privileged daemon does in places a user owns, without following a link the user
 * planted or swapped in. A walk by path name (stat, then open) can be raced: the user replaces a
 * folder by a link between the two, and the daemon deletes what the link points to. Here every
 * step is made relative to an open directory ({@link SecureDirectoryStream}: {@code openat},
 * {@code unlinkat}, {@code O_NOFOLLOW}), so a link is removed as a link and never entered.
 */
public final class NoFollow {
  private NoFollow() {}

  /**
   * Deletes {@code name} in {@code parent} and, if it is a folder, all it holds, never following
   * a link. {@code parent} itself must not be writable by the user (it is opened by path once).
   * A missing entry is not an error.
   */
  public static void deleteTree(Path parent, String name) throws IOException {
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(parent)) {
      if (!(stream instanceof SecureDirectoryStream<Path> dir)) {
        throw new IOException("this platform cannot delete " + parent.resolve(name) + " without following links (no openat/unlinkat)");
      }
      delete(dir, Path.of(name));
    }
  }

  /** How often an entry that changed under the delete is looked at again before giving up (the next sweep retries). */
  private static final int ATTEMPTS = 100;

  private static void delete(SecureDirectoryStream<Path> dir, Path name) throws IOException {
    for (int attempt = 1; ; attempt++) {
      try {
        BasicFileAttributes a = dir.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).readAttributes();
        if (a.isDirectory()) {
          // opened with O_NOFOLLOW: if it was swapped for a link since the look above, this fails and it is looked at again
          try (SecureDirectoryStream<Path> sub = dir.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
            for (Path child : sub) {
              delete(sub, child.getFileName());
            }
          }
          dir.deleteDirectory(name);
        } else {
          dir.deleteFile(name); // a link is unlinked itself
        }
        return;
      } catch (NoSuchFileException e) {
        return; // gone meanwhile
      } catch (IOException e) {
        if (attempt == ATTEMPTS) {
          throw e; // the owner keeps changing it: left for the next sweep
        }
        // changed under us (a folder became a link or a file, or was filled again): look again
      }
    }
  }
}
