package org.coalition.handler;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Runs a job script as a local account in a fresh working folder, standard output and error
 * going to files there. When this process is root the script runs through {@code setpriv} as the
 * account (never as root); otherwise only as the account this process already runs as.
 */
public final class ScriptRunner {
  private static final String ME = System.getProperty("user.name");
  private static final boolean ROOT = "root".equals(ME);
  /** Most bytes kept of each output stream. */
  public static final int MAX_STREAM = 8 << 20;

  private final Path scratch;

  public ScriptRunner(Path scratch) {
    this.scratch = scratch;
  }

  /** The account this machine can run jobs as without privileges: this process's own, or {@code nobody} under root. */
  public static String unprivilegedAccount() {
    return ROOT ? "nobody" : ME;
  }

  /** A started script: its process and the folder holding its output. */
  public record Run(Process process, Path folder) {
    public byte[] stdout() {
      return head(folder.resolve("stdout"));
    }

    public byte[] stderr() {
      return head(folder.resolve("stderr"));
    }

    /** Deletes the working folder. */
    public void clean() {
      try (Stream<Path> all = Files.walk(folder)) {
        all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException e) {
        // best effort: a leftover folder in scratch is harmless
      }
    }
  }

  /** Starts {@code script} as {@code account} in a new folder named after {@code name}. */
  public Run start(String name, String account, String script) {
    if (account.equals("root")) {
      throw new IllegalArgumentException("job " + name + ": foreign jobs never run as root");
    }
    if (!ROOT && !account.equals(ME)) {
      throw new IllegalArgumentException("job " + name + ": cannot run as '" + account + "' from account '" + ME
          + "'; run the daemon as root (it switches to the mapped account) or map the site to '" + ME + "'");
    }
    try {
      Files.createDirectories(scratch);
      Path folder = Files.createTempDirectory(scratch, name.replaceAll("[^A-Za-z0-9._-]", "_") + "-",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      Path file = folder.resolve("job");
      Files.writeString(file, script, StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
      if (ROOT) {
        UserPrincipalLookupService users = folder.getFileSystem().getUserPrincipalLookupService();
        Files.setOwner(folder, users.lookupPrincipalByName(account));
        Files.setOwner(file, users.lookupPrincipalByName(account));
      }
      List<String> command = new ArrayList<>();
      if (ROOT) {
        command.addAll(List.of("setpriv", "--reuid=" + account, "--regid=" + primaryGroup(account), "--init-groups", "--"));
      }
      if (script.startsWith("#!")) {
        command.add(file.toString());
      } else {
        command.addAll(List.of("/bin/sh", file.toString()));
      }
      ProcessBuilder pb = new ProcessBuilder(command).directory(folder.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectOutput(folder.resolve("stdout").toFile())
          .redirectError(folder.resolve("stderr").toFile());
      pb.environment().put("HOME", folder.toString());
      return new Run(pb.start(), folder);
    } catch (IOException e) {
      throw new UncheckedIOException("job " + name + ": cannot start as " + account + ": " + e.getMessage(), e);
    }
  }

  private static String primaryGroup(String account) throws IOException {
    Process id = new ProcessBuilder("id", "-g", account).redirectErrorStream(true).start();
    try (InputStream in = id.getInputStream()) {
      String out = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
      if (id.waitFor() != 0 || !out.matches("[0-9]+")) {
        throw new IOException("no local account '" + account + "' (id -g: " + out + ")");
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while looking up " + account, e);
    }
  }

  /** The first {@link #MAX_STREAM} bytes of a file; a note marks the cut. */
  static byte[] head(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] data = in.readNBytes(MAX_STREAM);
      if (in.read() < 0) {
        return data;
      }
      byte[] note = ("\n[coalition: output cut at " + MAX_STREAM + " bytes]\n").getBytes(StandardCharsets.US_ASCII);
      System.arraycopy(note, 0, data, data.length - note.length, note.length); // the note replaces the last bytes kept
      return data;
    } catch (NoSuchFileException e) {
      return new byte[0];
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }
}
