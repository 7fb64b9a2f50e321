package org.coalition.testbed;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a testbed tool with a time limit and captures what it printed. */
public final class Command {
  private final List<String> argv = new ArrayList<>();
  private final Map<String, String> environment = new HashMap<>();
  private Duration timeout = Duration.ofSeconds(60);
  private String stdin;

  private Command(List<String> argv) {
    this.argv.addAll(argv);
  }

  public static Command of(Path tool, String... args) {
    List<String> argv = new ArrayList<>();
    argv.add(tool.toString());
    argv.addAll(List.of(args));
    return new Command(argv);
  }

  public Command env(String key, String value) {
    environment.put(key, value);
    return this;
  }

  /** Runs the tool as this user (the wrappers honour COALITION_TESTBED_USER, on the host and in the chroot). */
  public Command asUser(String user) {
    return env("COALITION_TESTBED_USER", user);
  }

  /** What the tool reads on its standard input. */
  public Command stdin(String text) {
    this.stdin = text;
    return this;
  }

  public Command timeout(Duration timeout) {
    this.timeout = timeout;
    return this;
  }

  /** The outcome of a run: exit code and both streams. */
  public record Result(List<String> argv, int exitCode, String stdout, String stderr) {
    /** Fails with the whole story when the tool did not exit 0. */
    public Result requireSuccess() {
      if (exitCode != 0) {
        throw new AssertionError(describe());
      }
      return this;
    }

    public String describe() {
      return String.join(" ", argv) + " exited " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
    }
  }

  public Result run() {
    Path out = null;
    Path err = null;
    Path in = null;
    try {
      out = Files.createTempFile("coalition-cmd", ".out");
      err = Files.createTempFile("coalition-cmd", ".err");
      ProcessBuilder builder = new ProcessBuilder(argv).redirectOutput(out.toFile()).redirectError(err.toFile());
      builder.environment().putAll(environment);
      if (stdin != null) {
        in = Files.createTempFile("coalition-cmd", ".in");
        Files.writeString(in, stdin, StandardCharsets.UTF_8);
        builder.redirectInput(in.toFile());
      }
      Process process = builder.start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(String.join(" ", argv) + " did not finish within " + timeout);
      }
      return new Result(List.copyOf(argv), process.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new AssertionError("cannot run " + String.join(" ", argv) + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while running " + String.join(" ", argv), e);
    } finally {
      deleteQuietly(out);
      deleteQuietly(err);
      deleteQuietly(in);
    }
  }

  private static void deleteQuietly(Path path) {
    if (path != null) {
      try {
        Files.deleteIfExists(path);
      } catch (IOException ignored) {
        // a temporary file left behind is harmless
      }
    }
  }
}
