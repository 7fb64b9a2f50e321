package org.coalition.staging;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.coalition.handler.files.AsAccount;

/**
 * A tar made by GNU tar with an account's rights ({@link AsAccount}: never root, so a link in the
 * account's files leads nowhere the account could not go), checked as it streams out
 * ({@link TarBundle#copy}) into a file this process owns, with its SHA-256.
 */
public final class AccountTar {
  /** The longest a pack may take: a hung file system must not hold the daemon. */
  static final Duration TIMEOUT = Duration.ofMinutes(10);
  private static final int MAX_MESSAGE = 2048;

  private AccountTar() {}

  /** A packed tar: its size, its SHA-256, and what the check kept and left out. */
  public record Packed(Path tar, long size, String sha256, TarBundle.Checked checked) {}

  /**
   * Runs {@code tar --create ARGS} as {@code account} in {@code folder} into {@code target}.
   *
   * @throws StagingRefused when tar fails (a missing or unreadable file: tar's own words), or the
   *     files pass {@code maxBytes}
   */
  static Packed pack(String account, Path folder, List<String> args, Path target, long maxBytes) {
    List<String> command = new ArrayList<>(List.of("tar", "--create", "--format=pax", "--numeric-owner", "--owner=0", "--group=0",
        "--directory=" + folder));
    command.addAll(args);
    Path errors = null;
    Process tar = null;
    try {
      errors = Files.createTempFile("coalition-tar-", ".err");
      tar = new ProcessBuilder(AsAccount.command(account, command)).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
          .redirectError(errors.toFile()).start();
      Process running = tar;
      CompletableFuture.delayedExecutor(TIMEOUT.toSeconds(), TimeUnit.SECONDS).execute(running::destroyForcibly);
      MessageDigest sha = Checksums.sha256();
      TarBundle.Checked checked;
      try (InputStream in = tar.getInputStream();
          OutputStream out = new DigestOutputStream(Files.newOutputStream(target, StandardOpenOption.CREATE_NEW), sha)) {
        checked = TarBundle.copy(in, out, maxBytes);
      }
      int code = tar.waitFor();
      // 1: a file changed while it was read (GNU tar's warning); 2 and up: a file missing or unreadable
      if (code > 1) {
        throw new StagingRefused(message(errors, code));
      }
      return new Packed(target, Files.size(target), Checksums.hex(sha), checked);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot pack the files of " + folder + " as " + account + ": " + e.getMessage(), e);
    } catch (IllegalArgumentException e) {
      throw new StagingRefused(e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while packing " + folder, e);
    } finally {
      if (tar != null) {
        tar.destroyForcibly();
      }
      deleteQuietly(errors);
    }
  }

  /** tar's own words, without its name, a few lines at most. */
  private static String message(Path errors, int code) throws IOException {
    String text;
    try (InputStream in = Files.newInputStream(errors)) {
      text = new String(in.readNBytes(MAX_MESSAGE), StandardCharsets.UTF_8);
    }
    String lines = text.lines().filter(l -> !l.startsWith("tar: Exiting with failure"))
        .map(l -> l.startsWith("tar: ") ? l.substring(5) : l).limit(3).collect(Collectors.joining("; "));
    return lines.isEmpty() ? "tar failed with exit code " + code : lines;
  }

  public static void deleteQuietly(Path file) {
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        // a temporary file left in /tmp: harmless
      }
    }
  }
}
