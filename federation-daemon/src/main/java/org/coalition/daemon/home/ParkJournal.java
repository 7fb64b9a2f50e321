package org.coalition.daemon.home;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.coalition.daemon.base.OwnerOnlyFolder;
import org.coalition.handler.HomeJob;

/**
 * The jobs this daemon parked: held in the local batch system while the federation runs them
 * (docs/jobs.md, "Parks"). A hold the daemon did not make, an administrator's, looks the same to
 * the batch system; this record tells them apart, so the daemon never releases a hold it did not
 * make. A park is recorded before the hold and forgotten after the release, so a crash in
 * between leaves a record with no hold (forgotten at the next start), never a hold with no record.
 * Kept in the spool, one empty file per job in a 0700 folder, so a restarted daemon knows its
 * parks too.
 */
public final class ParkJournal {
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

  /** Where the records are kept; none for a journal kept in memory alone (the demo, tests). */
  private final Path dir;
  private final Set<String> parked = ConcurrentHashMap.newKeySet();

  private ParkJournal(Path dir) {
    this.dir = dir;
  }

  /** A journal kept in memory alone: a restarted daemon takes its parks for administrators' holds. */
  public static ParkJournal inMemory() {
    return new ParkJournal(null);
  }

  /** The journal in {@code dir}, made (mode 0700) if missing, with the parks a daemon before this one recorded there. */
  public static ParkJournal in(Path dir) {
    ParkJournal j = new ParkJournal(OwnerOnlyFolder.prepare(dir, "park journal"));
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path f : files) {
        String name = f.getFileName().toString();
        if (ID.matcher(name).matches() && Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
          j.parked.add(name);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the park journal " + dir + ": " + e.getMessage(), e);
    }
    return j;
  }

  /** Whether {@code job} is held by this daemon's park (and not by someone else's hold alone). */
  public boolean parked(HomeJob job) {
    return job.held() && parked.contains(job.id());
  }

  /** Records that job {@code id} is about to be parked; throws when the record cannot be kept (then the job is not parked). */
  public void parking(String id) {
    if (dir != null) {
      try {
        Files.write(file(id), new byte[0]);
        Files.setPosixFilePermissions(file(id), PosixFilePermissions.fromString("rw-------"));
        OwnerOnlyFolder.force(dir);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot record the park of job " + id + " in " + dir + ": " + e.getMessage(), e);
      }
    }
    parked.add(id);
  }

  /** Forgets the park of job {@code id}: it was released, or its hold was never made. */
  void released(String id) {
    parked.remove(id);
    if (dir != null) {
      try {
        Files.deleteIfExists(file(id));
        OwnerOnlyFolder.force(dir);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot forget the park of job " + id + " in " + dir + ": " + e.getMessage(), e);
      }
    }
  }

  /**
   * Forgets the parks of jobs not among {@code jobs} (ended, cancelled), and with {@code heldOnly}
   * those of jobs not held any more: at a start, a record left by a crash before its hold was made
   * or after its release.
   */
  public void retain(Collection<HomeJob> jobs, boolean heldOnly) {
    Set<String> keep = jobs.stream().filter(j -> !heldOnly || j.held()).map(HomeJob::id).collect(Collectors.toSet());
    for (String id : new HashSet<>(parked)) {
      if (!keep.contains(id)) {
        released(id);
      }
    }
  }

  private Path file(String id) {
    if (id == null || !ID.matcher(id).matches()) {
      throw new IllegalArgumentException("not a job id the park journal can keep: " + id);
    }
    return dir.resolve(id);
  }
}
