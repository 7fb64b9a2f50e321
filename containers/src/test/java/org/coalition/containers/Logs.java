package org.coalition.containers;

import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.Capability;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;
import org.testcontainers.containers.output.OutputFrame;

/** Each container's output in {@code target/containers/NAME.log}, and the small settings every container of the tier gets. */
final class Logs {
  private final Path dir;

  Logs(Path dir) {
    this.dir = dir;
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Consumer<OutputFrame> to(String name) {
    Path file = dir.resolve(name + ".log");
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return frame -> {
      try {
        Files.writeString(file, frame.getUtf8String(), StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      } catch (IOException e) {
        // a log line lost is no reason to fail a test
      }
    };
  }

  /** Whether the container's log holds {@code text} so far. */
  boolean contains(String name, String text) {
    try {
      return Files.isRegularFile(file(name)) && Files.readString(file(name), StandardCharsets.UTF_8).contains(text);
    } catch (IOException e) {
      return false;
    }
  }

  /** How many lines of the container's log hold {@code text}. */
  long count(String name, String text) {
    try {
      return Files.readAllLines(file(name), StandardCharsets.UTF_8).stream().filter(l -> l.contains(text)).count();
    } catch (IOException e) {
      return 0;
    }
  }

  Path file(String name) {
    return dir.resolve(name + ".log");
  }

  /** The container's host name: Slurm names nodes by it, certificates name daemons by it. */
  Consumer<CreateContainerCmd> hostname(String name) {
    return cmd -> cmd.withHostName(name);
  }

  /** NET_ADMIN, so {@link Faults} can drop packets inside the container. */
  static Consumer<CreateContainerCmd> netAdmin() {
    return cmd -> cmd.getHostConfig().withCapAdd(Capability.NET_ADMIN);
  }
}
