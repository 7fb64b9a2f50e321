package org.coalition.daemon.base;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import org.coalition.coordination.SiteStatus;
import org.coalition.handler.config.TextFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an operator changed through the API while the daemon ran ({@code participation set}),
 * kept in the spool ({@code operator/settings.json}, mode 0600 in a 0700 folder) so that a
 * restart, the upgrade path included, keeps it: the daemon starts with it over the site file's
 * value, and {@code config check} and the dashboard show it as set at runtime. It is kept with the
 * site file's value it replaced: a site file whose value has changed since (an admin's edit) wins
 * at the next start, and the kept one is dropped, so neither overrides the other silently.
 */
public final class OperatorSettings {
  /** A kept setting: its value, when the operator set it, and the site file's value it replaced. */
  public record Participation(double level, Instant setAt, double over) {}

  /** The file's content: {@code {"participation": {"level": 3600, "setAt": "2026-12-01T21:00:00Z", "over": 7200}}}. */
  record Stored(Kept participation) {}

  /** A kept level as written, its time in ISO-8601. */
  record Kept(double level, String setAt, double over) {}

  /** The file name in its folder. */
  public static final String FILE = "settings.json";
  private static final ObjectMapper JSON = JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .build();
  private static final int MAX_BYTES = 4096;
  private static final Logger LOG = LoggerFactory.getLogger(OperatorSettings.class);

  /** The folder; none for settings kept in memory alone (the demo, tests). */
  private final Path dir;
  private volatile Optional<Participation> participation;

  private OperatorSettings(Path dir, Optional<Participation> participation) {
    this.dir = dir;
    this.participation = participation;
  }

  /** Settings kept in memory alone: a restart goes back to the site file's. */
  public static OperatorSettings inMemory() {
    return new OperatorSettings(null, Optional.empty());
  }

  /**
   * The settings kept in {@code dir} (made, mode 0700, if missing), with what an operator set
   * before this daemon started, unless the site file's level ({@code siteFile}) has changed
   * since: then the file wins, and the kept level is dropped.
   */
  public static OperatorSettings in(Path dir, double siteFile) {
    OwnerOnlyFolder.prepare(dir, "operator settings folder");
    OperatorSettings s = new OperatorSettings(dir, read(dir));
    s.participation.filter(p -> p.over() != siteFile).ifPresent(p -> {
      LOG.info("the site file's participation level is {} now, {} when an operator set {} at {}: the site file's is in effect", siteFile,
          p.over(), p.level(), p.setAt());
      s.participation(Optional.empty());
    });
    return s;
  }

  /**
   * The participation level an operator set in {@code dir}, if any, without making anything:
   * what {@code config check} shows. A file that is not what the daemon wrote is refused with
   * its name and how to put it right.
   */
  public static Optional<Participation> read(Path dir) {
    Path file = dir.resolve(FILE);
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    try {
      if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
        throw new IOException("not a regular file");
      }
      Kept k = JSON.readValue(TextFile.read(file, "the operator's settings", MAX_BYTES), Stored.class).participation();
      if (k == null) {
        return Optional.empty();
      }
      if (k.setAt() == null || !(k.level() >= 0 && k.level() <= SiteStatus.MAX_PARTICIPATION)) {
        throw new IOException("participation must have a level in [0, 1e15] and the time it was set");
      }
      return Optional.of(new Participation(k.level(), Instant.parse(k.setAt()), k.over()));
    } catch (IOException | DateTimeParseException e) {
      String why = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
      throw new UncheckedIOException(file + ": not the operator's settings as the daemon writes them (" + why
          + "); remove it to start with the site file's settings", e instanceof IOException io ? io : new IOException(e));
    }
  }

  /** The participation level an operator set, if any. */
  public Optional<Participation> participation() {
    return participation;
  }

  /** Keeps {@code level} as set now (empty: the site file's again), on disk before it is in effect. */
  public void participation(Optional<Participation> level) {
    if (dir != null) {
      try {
        if (level.isPresent()) {
          Participation p = level.get();
          OwnerOnlyFolder.writeAtomically(dir, FILE, JSON.writeValueAsBytes(new Stored(new Kept(p.level(), p.setAt().toString(), p.over()))));
        } else {
          Files.deleteIfExists(dir.resolve(FILE));
          OwnerOnlyFolder.force(dir);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot keep the operator's settings in " + dir + ": " + e.getMessage(), e);
      }
    }
    participation = level;
  }
}
