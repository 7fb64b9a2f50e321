package org.coalition.handler;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.coalition.handler.HandlerException.Category;

/**
 * A batch system's command-line tool ({@code qstat}, {@code condor_q}, {@code scontrol}) run by a
 * handler: bounded time, bounded output, and failures as {@link HandlerException}s that quote the
 * command, its exit code and its own words.
 *
 * @param argv the tool and the arguments that precede every call (a wrapper such as {@code runuser -u U --} included)
 * @param environment variables added to the daemon's environment
 * @param timeout longest a call may take before the tool is killed
 */
public record Tool(List<String> argv, Map<String, String> environment, Duration timeout) {
  /** Largest standard output read (a {@code condor_q -json} of 10,000 jobs is about 20 MB). */
  public static final int MAX_OUTPUT = 256 << 20;
  private static final int MAX_ERROR = 64 << 10;

  public Tool {
    argv = List.copyOf(argv);
    environment = Map.copyOf(environment);
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("a tool needs a command");
    }
  }

  public static Tool of(String command, Duration timeout) {
    return new Tool(List.of(command), Map.of(), timeout);
  }

  /** What a call printed, and its exit code. */
  public record Result(List<String> command, int exitCode, String stdout, String stderr) {
    /** The output of a call that exited 0; otherwise a {@link HandlerException} of {@code category} naming {@code what}. */
    public String requireSuccess(String what, Category category) {
      if (exitCode != 0) {
        throw new HandlerException(category, what + ": " + String.join(" ", command) + " failed (exit " + exitCode + "): "
            + (stderr.isBlank() ? (stdout.isBlank() ? "no message" : stdout.strip()) : stderr.strip()));
      }
      return stdout;
    }
  }

  /** Runs the tool with {@code args} after its own arguments, {@code stdin} (may be null) as its input. */
  public Result run(List<String> args, String stdin) {
    List<String> command = new ArrayList<>(argv);
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(environment);
    if (stdin == null) {
      builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    }
    Process p;
    try {
      p = builder.start();
    } catch (IOException e) {
      throw new HandlerException(Category.UNAVAILABLE, "cannot run " + command.get(0) + ": " + e.getMessage()
          + " (is it installed, and named right in the site file?)", e);
    }
    CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> drain(p.getErrorStream(), MAX_ERROR));
    CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> drain(p.getInputStream(), MAX_OUTPUT + 1));
    if (stdin != null) {
      try (OutputStream in = p.getOutputStream()) {
        in.write(stdin.getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        // the tool ended without reading all of it; its exit code and message say why
      }
    }
    try {
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new HandlerException(Category.UNAVAILABLE, String.join(" ", command) + " did not end within " + timeout.toSeconds() + " s");
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new HandlerException(Category.UNAVAILABLE, "interrupted while running " + String.join(" ", command), e);
    }
    byte[] stdout = out.join();
    if (stdout.length > MAX_OUTPUT) {
      throw new HandlerException(Category.PROTOCOL, String.join(" ", command) + " printed more than " + MAX_OUTPUT + " bytes");
    }
    return new Result(command, p.exitValue(), new String(stdout, StandardCharsets.UTF_8), new String(err.join(), StandardCharsets.UTF_8));
  }

  /** Reads a stream to its end, keeping at most {@code limit} bytes. */
  public static byte[] drain(InputStream in, int limit) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    try (in) {
      int n;
      while ((n = in.read(buf)) >= 0) {
        if (out.size() < limit) {
          out.write(buf, 0, Math.min(n, limit - out.size()));
        }
      }
    } catch (IOException e) {
      // the process ended or was killed; what was read stays
    }
    return out.toByteArray();
  }
}
