package org.coalition.handler;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Something this host lacks for a handler to connect, found before the daemon joins its
 * federation ({@link HandlerFactory#hostProblems}): the key of the {@code handlers:} entry it
 * concerns ({@code jwt-key}) and what is wrong, with how to put it right. {@code config check}
 * and the daemon's start report it with the key's file and line.
 */
public record HostProblem(String key, String message) {

  /** A file the daemon must read ({@code what} it is, and where it comes from), if it cannot. */
  public static Optional<HostProblem> unreadableFile(String key, Path file, String what) {
    if (!Files.exists(file)) {
      return Optional.of(new HostProblem(key, file + ": " + what + " is missing"));
    }
    if (!Files.isRegularFile(file)) {
      return Optional.of(new HostProblem(key, file + ": " + what + " must be a regular file"));
    }
    if (!Files.isReadable(file)) {
      return Optional.of(new HostProblem(key, file + ": " + what + " is not readable by the user running the daemon"));
    }
    return Optional.empty();
  }

  /** A folder the daemon must write in ({@code what} it is, and who makes it), if it cannot. */
  public static Optional<HostProblem> unwritableFolder(String key, Path folder, String what) {
    if (!Files.isDirectory(folder)) {
      return Optional.of(new HostProblem(key, folder + ": " + what + (Files.exists(folder) ? " is not a directory" : " is missing")));
    }
    if (!Files.isWritable(folder)) {
      return Optional.of(new HostProblem(key, folder + ": " + what + " is not writable by the user running the daemon"));
    }
    return Optional.empty();
  }

  /** A command named by an absolute path that is not an executable file here; a bare name is looked up when it runs. */
  public static Optional<HostProblem> missingCommand(String key, List<String> command) {
    Path program = Path.of(command.get(0));
    if (program.isAbsolute() && !Files.isExecutable(program)) {
      return Optional.of(new HostProblem(key, program + ": no such program here" + (Files.exists(program) ? " (not executable)" : "")
          + "; give the path of " + program.getFileName() + " on the daemon's host"));
    }
    return Optional.empty();
  }

  /** The present ones of {@code checks}, in order. */
  @SafeVarargs
  public static List<HostProblem> of(Optional<HostProblem>... checks) {
    List<HostProblem> out = new ArrayList<>();
    for (Optional<HostProblem> check : checks) {
      check.ifPresent(out::add);
    }
    return List.copyOf(out);
  }
}
