package org.coalition.daemon.executor;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.coalition.coordination.Claim;
import org.coalition.coordination.JobRef;
import org.coalition.daemon.base.OwnerOnlyFolder;
import org.coalition.handler.PilotHandle;
import org.coalition.job.JobLayout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pilots a daemon has pending or running, kept in its spool so that a restarted daemon carries
 * on with them (docs/decisions/0011-durable-work.md). One JSON file per pilot, mode 0600 in a 0700
 * folder, replaced whole: written to a temporary file, forced to disk, renamed over the old one
 * and the folder forced, so a crash leaves the old record or the new one, never half of either.
 * A pilot's token is kept as its SHA-256 only: a journal that leaks gives no capability.
 */
public final class PilotJournal {
  /** A journal kept nowhere (the demo, tests): a restart forgets the pilots, and their runs are lost. */
  public static final PilotJournal NONE = new PilotJournal();

  private static final Logger LOG = LoggerFactory.getLogger(PilotJournal.class);
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
  private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
  private static final String SUFFIX = ".json";
  private static final ObjectMapper JSON = JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
  private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

  /**
   * What a restarted daemon needs of one pilot: who it is, what it runs and where its output went.
   * {@code confirmed} (the pilot called with the token it got with its job) is absent from records
   * written before it was kept: such a pilot is taken to have had its job. {@code memoryMb} is
   * absent from records written before it was kept: such a pilot asked the site's default. {@code layout}
   * is absent (null) for a pilot of one task on one node without GRES, as in records written before it was kept.
   * {@code reservation} is absent (null) for a pilot in no reservation of the batch system.
   */
  record Entry(String id, String tokenSha256, String account, int cores, Long memoryMb, long walltime, JobRef target, long submittedMillis, String phase,
      PilotHandle handle, Claim claim, double startedAt, String output, boolean reported, Boolean confirmed, JobLayout layout,
      String reservation) {
    Entry {
      if (id == null || !ID.matcher(id).matches()) {
        throw new IllegalArgumentException("not a pilot id: " + id);
      }
      if (tokenSha256 == null || !SHA256.matcher(tokenSha256).matches()) {
        throw new IllegalArgumentException("pilot " + id + ": its token's SHA-256 must be 64 hex digits");
      }
      PilotLifecycle.Phase.valueOf(phase == null ? "" : phase);
      if (account == null || target == null || cores < 1 || walltime < 1) {
        throw new IllegalArgumentException("pilot " + id + ": account, target job, cores and time limit are required");
      }
    }
  }

  private final Path dir;

  private PilotJournal() {
    this.dir = null;
  }

  /** The journal in {@code dir}, made (mode 0700) if missing; a folder others may enter is refused. */
  public PilotJournal(Path dir) {
    this.dir = OwnerOnlyFolder.prepare(dir, "pilot journal");
  }

  /** Records {@code e}, replacing what the journal held of that pilot. */
  void save(Entry e) {
    if (dir == null) {
      return;
    }
    Path file = file(e.id());
    try {
      OwnerOnlyFolder.writeAtomically(dir, file.getFileName().toString(), JSON.writeValueAsBytes(e));
    } catch (IOException x) {
      throw new UncheckedIOException("cannot record pilot " + e.id() + " in " + dir + ": " + x.getMessage(), x);
    }
  }

  /** Forgets pilot {@code id}. */
  void remove(String id) {
    if (dir == null) {
      return;
    }
    try {
      Files.deleteIfExists(file(id));
      OwnerOnlyFolder.force(dir);
    } catch (IOException x) {
      throw new UncheckedIOException("cannot forget pilot " + id + " in " + dir + ": " + x.getMessage(), x);
    }
  }

  /** Every pilot recorded; a record that cannot be read is set aside ({@code NAME.broken}) with a warning, never half-believed. */
  List<Entry> load() {
    List<Entry> out = new ArrayList<>();
    if (dir == null) {
      return out;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
      for (Path f : files) {
        if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
          continue;
        }
        try {
          Entry e = JSON.readValue(Files.readAllBytes(f), Entry.class);
          if (!f.getFileName().toString().equals(e.id() + SUFFIX)) {
            throw new IOException("it names pilot " + e.id());
          }
          out.add(e);
        } catch (IOException | RuntimeException x) {
          Path aside = f.resolveSibling(f.getFileName() + ".broken");
          LOG.warn("pilot journal: {} cannot be read ({}); set aside as {}", f, x.getMessage(), aside.getFileName());
          Files.move(f, aside, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    } catch (IOException x) {
      throw new UncheckedIOException("cannot read the pilot journal " + dir + ": " + x.getMessage(), x);
    }
    return out;
  }

  private Path file(String id) {
    if (id == null || !ID.matcher(id).matches()) {
      throw new IllegalArgumentException("not a pilot id: " + id);
    }
    return dir.resolve(id + SUFFIX);
  }
}
