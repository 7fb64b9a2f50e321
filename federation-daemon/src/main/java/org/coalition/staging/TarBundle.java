package org.coalition.staging;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

/**
 * The tars a job's files travel in, read entry by entry whoever wrote them: the peer at the other
 * end may be hostile. Only regular files and folders pass, under relative names that stay inside
 * the folder they are unpacked in (no absolute name, no '..', no control character); links,
 * devices and pipes are left out and named; sizes and the number of entries are bounded. A
 * leading '/' is dropped as GNU tar drops it ({@code /etc/x} unpacks as {@code etc/x} inside).
 */
public final class TarBundle {
  private TarBundle() {}

  /** The most bytes a tar holding {@code maxBytes} of files may take: headers and padding of every entry besides. */
  public static long rawLimit(long maxBytes) {
    return maxBytes == 0 ? 0 : maxBytes + StagingLimits.MAX_ENTRIES * 2048L + 10240;
  }

  /** What a check kept: files and bytes, and the entries it left out (with why). */
  public record Checked(int files, long bytes, List<String> leftOut) {}

  /**
   * Copies the regular files and folders of the tar {@code in} to a new tar {@code out}: names
   * normalized, owners dropped, modes reduced to {@code rw-r--r--} or {@code rwxr-xr-x}, times kept.
   *
   * @throws StagingRefused when the tar is malformed, holds a name that leaves its folder, more than
   *     {@link StagingLimits#MAX_ENTRIES} entries, or more than {@code maxBytes} of file content
   */
  public static Checked copy(InputStream in, OutputStream out, long maxBytes) throws IOException {
    int entries = 0;
    int files = 0;
    long bytes = 0;
    List<String> leftOut = new ArrayList<>();
    try (TarArchiveInputStream tar = new TarArchiveInputStream(new BufferedInputStream(in))) {
      // not closed here: closing it would close the caller's stream
      TarArchiveOutputStream target = new TarArchiveOutputStream(out);
      target.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      target.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
      for (TarArchiveEntry e = next(tar); e != null; e = next(tar)) {
        if (++entries > StagingLimits.MAX_ENTRIES) {
          throw new StagingRefused("more than " + StagingLimits.MAX_ENTRIES + " files and folders; pack them into fewer files");
        }
        String name = name(e.getName());
        if (name.isEmpty()) {
          continue; // the folder itself ("./")
        }
        if (!e.isDirectory() && !regular(e)) {
          leftOut.add(name + " (" + kind(e) + ")");
          continue;
        }
        TarArchiveEntry kept = new TarArchiveEntry(e.isDirectory() ? name + "/" : name);
        kept.setModTime(e.getModTime());
        kept.setMode(e.isDirectory() || (e.getMode() & 0100) != 0 ? 0755 : 0644);
        if (regular(e)) {
          bytes += e.getSize();
          if (bytes > maxBytes) {
            throw new StagingRefused("the files are larger than the limit of " + maxBytes + " bytes per job (staging.max-job)");
          }
          kept.setSize(e.getSize());
          files++;
        }
        target.putArchiveEntry(kept);
        if (regular(e) && tar.transferTo(target) != e.getSize()) {
          throw new StagingRefused("the tar ends inside " + name);
        }
        target.closeArchiveEntry();
      }
      target.finish();
      target.flush();
    }
    return new Checked(files, bytes, leftOut);
  }

  /**
   * Unpacks a tar {@link #copy} made into {@code folder}, a folder nothing else writes in (new,
   * or the job's sandbox before the job starts), checking each entry again. Files and folders
   * only, made without following links (there are none: nothing but this makes entries there).
   */
  public static void unpack(InputStream in, Path folder, long maxBytes) throws IOException {
    long bytes = 0;
    int entries = 0;
    try (TarArchiveInputStream tar = new TarArchiveInputStream(new BufferedInputStream(in))) {
      for (TarArchiveEntry e = next(tar); e != null; e = next(tar)) {
        if (++entries > StagingLimits.MAX_ENTRIES) {
          throw new StagingRefused("more than " + StagingLimits.MAX_ENTRIES + " files and folders");
        }
        String name = name(e.getName());
        if (name.isEmpty() || !(e.isDirectory() || regular(e))) {
          continue;
        }
        Path target = folder.resolve(name);
        if (e.isDirectory()) {
          Files.createDirectories(target);
          continue;
        }
        bytes += e.getSize();
        if (bytes > maxBytes) {
          throw new StagingRefused("the files are larger than the limit of " + maxBytes + " bytes per job");
        }
        Files.createDirectories(target.getParent());
        if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
          throw new FileAlreadyExistsException(name + " is both a folder and a file in the tar");
        }
        try (OutputStream out = Files.newOutputStream(target, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
          tar.transferTo(out);
        }
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString((e.getMode() & 0100) != 0 ? "rwxr-xr-x" : "rw-r--r--"));
        Files.setLastModifiedTime(target, FileTime.from(e.getModTime().toInstant()));
      }
    }
  }

  /** A regular file, by its type flag alone (commons-compress's isFile also takes an unknown type without a trailing '/'). */
  private static boolean regular(TarArchiveEntry e) {
    byte flag = e.getLinkFlag();
    return flag == TarConstants.LF_NORMAL || flag == TarConstants.LF_OLDNORM || flag == TarConstants.LF_CONTIG;
  }

  private static TarArchiveEntry next(TarArchiveInputStream tar) throws IOException {
    try {
      return tar.getNextEntry();
    } catch (IllegalArgumentException e) {
      throw new StagingRefused("not a valid tar: " + e.getMessage(), e);
    }
  }

  /** The entry's name, relative and normalized ("" for the folder itself), or refused. */
  static String name(String raw) {
    String where = "the tar holds '" + StageDirectives.abbreviate(raw.replaceAll("\\p{Cntrl}", "?")) + "'";
    if (raw.chars().anyMatch(c -> c < 0x20 || c == 0x7f) || raw.length() > 4096) {
      throw new StagingRefused(where + ": a name with control characters or over 4,096 characters");
    }
    Path p = Path.of(raw).normalize();
    if (p.isAbsolute() || p.startsWith("..")) {
      throw new StagingRefused(where + ": a name outside its folder");
    }
    return p.toString();
  }

  private static String kind(TarArchiveEntry e) {
    if (e.isSymbolicLink()) {
      return "a symbolic link, not brought";
    }
    if (e.isLink()) {
      return "a hard link, not brought";
    }
    return "neither a file nor a folder, not brought";
  }
}
