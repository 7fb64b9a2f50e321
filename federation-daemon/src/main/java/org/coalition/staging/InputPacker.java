package org.coalition.staging;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.coalition.coordination.Inputs;

/**
 * The home side of inputs: packs what a job's script declares ({@link StageDirectives}) from its
 * working directory, as the job's user ({@link AccountTar}, following links as that user would),
 * into this daemon's spool, where the API serves it to the site that claims the job. A job
 * whose inputs are missing, unreadable by its user, or over the limits is refused with the
 * reason, and stays home.
 */
public final class InputPacker {
  private final Path spool;
  private final StagingLimits limits;

  public InputPacker(Path spool, StagingLimits limits) {
    this.spool = spool;
    this.limits = limits;
  }

  /**
   * Packs the inputs job {@code jobId} of {@code user} declares in {@code script}, from
   * {@code workDir}; {@link Inputs#NONE} when it declares none.
   *
   * @throws StagingRefused with the reason the job stays home
   */
  public Inputs pack(String jobId, String user, String workDir, String script) {
    List<String> paths = StageDirectives.inputs(script);
    if (paths.isEmpty()) {
      return Inputs.NONE;
    }
    if (limits.maxJobBytes() == 0) {
      throw new StagingRefused("the job declares inputs, and this site sends no files (staging.max-job is 0, or its daemon serves no API)");
    }
    if (workDir.isEmpty() || !Path.of(workDir).isAbsolute()) {
      throw new StagingRefused("the job declares inputs but its working directory is unknown here");
    }
    long room = limits.maxSiteBytes() - used();
    Path target = file(jobId);
    try {
      Files.createDirectories(spool, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      Files.deleteIfExists(target);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot use the inputs spool " + spool + ": " + e.getMessage(), e);
    }
    List<String> args = new ArrayList<>(List.of("--dereference", "--"));
    args.addAll(paths);
    AccountTar.Packed packed;
    try {
      packed = AccountTar.pack(user, Path.of(workDir), args, target, Math.min(limits.maxJobBytes(), Math.max(0, room)));
    } catch (RuntimeException e) {
      AccountTar.deleteQuietly(target);
      if (e instanceof StagingRefused r && room < limits.maxJobBytes() && r.getMessage().contains("staging.max-job")) {
        throw new StagingRefused("the inputs do not fit in what this site keeps for all jobs' inputs now (staging.max-site, "
            + limits.maxSiteBytes() + " bytes)");
      }
      throw e instanceof StagingRefused r ? new StagingRefused("inputs: " + r.getMessage(), r) : e;
    }
    if (!packed.checked().leftOut().isEmpty()) {
      AccountTar.deleteQuietly(target);
      throw new StagingRefused("inputs: " + String.join(", ", packed.checked().leftOut()));
    }
    return new Inputs(packed.sha256(), packed.size());
  }

  /** The stored inputs of job {@code jobId}, if any. */
  public Optional<Path> stored(String jobId) {
    Path f = file(jobId);
    return Files.isRegularFile(f) ? Optional.of(f) : Optional.empty();
  }

  /** Forgets the inputs of a job that ran, or runs here. */
  public void drop(String jobId) {
    AccountTar.deleteQuietly(file(jobId));
  }

  /** Drops the inputs of every job not in {@code live} (ran, ran here, or gone). */
  public void retain(Collection<String> live) {
    if (!Files.isDirectory(spool)) {
      return;
    }
    Set<String> keep = new HashSet<>();
    live.forEach(id -> keep.add(file(id).getFileName().toString()));
    try (var files = Files.list(spool)) {
      files.filter(f -> !keep.contains(f.getFileName().toString())).forEach(AccountTar::deleteQuietly);
    } catch (IOException e) {
      // tried again next round
    }
  }

  private Path file(String jobId) {
    return spool.resolve(jobId.replaceAll("[^A-Za-z0-9._-]", "_") + ".tar");
  }

  private long used() {
    if (!Files.isDirectory(spool)) {
      return 0;
    }
    try (var files = Files.list(spool)) {
      return files.mapToLong(f -> f.toFile().length()).sum();
    } catch (IOException e) {
      return 0;
    }
  }
}
