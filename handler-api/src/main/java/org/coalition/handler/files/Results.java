package org.coalition.handler.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.RemoteRun;

/**
 * The results folder coalition-replay reads (every home system's replay: Slurm's job_submit hook,
 * HTCondor's replay run): one folder per replayed job, named by its id,
 * holding {@code stdout}, {@code stderr} and {@code status}, and {@code files.tar} and
 * {@code since} when the run wrote files. The root must be writable by the
 * daemon alone (nobody can then plant a result for someone else's job); each job's folder is
 * handed to the job's user, mode 0700, so only that user reads the output (the daemon needs the
 * right to change owners: root or CAP_CHOWN). A folder appears whole or not at all: it is
 * written under a hidden name and renamed.
 */
public final class Results {
  private static final Set<PosixFilePermission> PRIVATE_DIR = PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> PRIVATE_FILE = PosixFilePermissions.fromString("rw-------");
  /** The files the run wrote, a tar coalition-replay unpacks into the job's working directory. */
  public static final String FILES = "files.tar";
  /** An empty file whose time is when the job left home: a file at home changed after it is not written over. */
  public static final String SINCE = "since";
  /** A hidden folder older than this is what a crash left half-written. */
  private static final Duration ABANDONED = Duration.ofHours(1);
  /** The ids results are kept under: Slurm's and Grid Engine's numbers, HTCondor's CLUSTER.PROC. */
  private static final Pattern JOB_ID = Pattern.compile("[0-9]+(\\.[0-9]+)?");

  private final Path root;

  public Results(Path root) {
    this.root = root;
  }

  public Path root() {
    return root;
  }

  /** Writes the result of job {@code id}, owned by {@code user}; replaces an earlier one. */
  public void write(String id, String user, RemoteRun run) {
    checkRoot();
    Path tmp = root.resolve("." + id + "." + UUID.randomUUID());
    Path target = root.resolve(id);
    try {
      UserPrincipal owner = root.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(user);
      Files.createDirectory(tmp, PosixFilePermissions.asFileAttribute(PRIVATE_DIR));
      write(tmp.resolve("stdout"), run.stdout(), owner);
      write(tmp.resolve("stderr"), run.stderr(), owner);
      write(tmp.resolve("status"), run.statusLine().getBytes(StandardCharsets.US_ASCII), owner);
      if (run.files().isPresent()) {
        RemoteRun.Files files = run.files().get();
        Path tar = tmp.resolve(FILES);
        Files.copy(files.tar(), tar);
        own(tar, owner);
        Path since = tmp.resolve(SINCE);
        write(since, new byte[0], owner);
        Files.setLastModifiedTime(since, FileTime.from(files.since()));
      }
      Files.getFileAttributeView(tmp, PosixFileAttributeView.class).setOwner(owner);
      delete(target);
      try {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target);
      }
    } catch (UserPrincipalNotFoundException e) {
      deleteQuietly(tmp);
      throw new HandlerException(Category.REJECTED, "cannot write the result of job " + id + ": its user " + user + " is not known here", e);
    } catch (IOException e) {
      // a full disk, a file system gone read-only for a while, a lost NFS mount: the run is kept and the write tried again
      deleteQuietly(tmp);
      throw new HandlerException(Category.UNAVAILABLE, "cannot write the result of job " + id + " for " + user + " in " + root
          + " now: " + e + " (is the disk full? the daemon must be able to write there and to hand files to users: root or CAP_CHOWN)", e);
    }
  }

  /** Deletes the results of jobs {@code ended} says are over, and half-written folders a crash left. */
  public void sweep(Predicate<String> ended) {
    if (!Files.isDirectory(root)) {
      return;
    }
    List<Path> gone = new ArrayList<>();
    Instant abandoned = Instant.now().minus(ABANDONED);
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
      for (Path p : entries) {
        String name = p.getFileName().toString();
        if (name.startsWith(".")) {
          FileTime modified = Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS);
          if (modified.toInstant().isBefore(abandoned)) {
            gone.add(p);
          }
        } else if (JOB_ID.matcher(name).matches() && ended.test(name)) {
          gone.add(p);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the results folder " + root, e);
    }
    gone.forEach(Results::deleteQuietly);
  }

  private void checkRoot() {
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(root, LinkOption.NOFOLLOW_LINKS);
      if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
        throw new HandlerException(Category.REJECTED, "results folder " + root + " is not a folder");
      }
      if (perms.contains(PosixFilePermission.GROUP_WRITE) || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
        throw new HandlerException(Category.REJECTED, "results folder " + root + " is writable by others ("
            + PosixFilePermissions.toString(perms) + "): anyone could plant a result for someone else's job; chmod 711 it");
      }
    } catch (IOException e) {
      throw new HandlerException(Category.REJECTED, "results folder " + root + " is not usable: " + e
          + " (create it on storage every compute node sees, owned by the daemon's account, mode 711)", e);
    }
  }

  private static void write(Path file, byte[] bytes, UserPrincipal owner) throws IOException {
    Files.write(file, bytes);
    own(file, owner);
  }

  private static void own(Path file, UserPrincipal owner) throws IOException {
    Files.setPosixFilePermissions(file, PRIVATE_FILE);
    Files.getFileAttributeView(file, PosixFileAttributeView.class).setOwner(owner);
  }

  /** A result folder belongs to its user, who may have put links in it: deleted without following any. */
  private static void delete(Path p) throws IOException {
    NoFollow.deleteTree(p.getParent(), p.getFileName().toString());
  }

  private static void deleteQuietly(Path p) {
    try {
      delete(p);
    } catch (IOException e) {
      // Swept again next time.
    }
  }
}
