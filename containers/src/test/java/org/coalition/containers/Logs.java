package org.coalition.containers;

import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.Frame;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.function.Consumer;
import org.testcontainers.containers.GenericContainer;
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
    return frame -> append(file, frame.getUtf8String());
  }

  /**
   * Goes on writing {@code c}'s output to its file after a restart ({@link Engine#start}): the
   * engine ends a container's log stream when it stops, so the first follower has ended.
   */
  void follow(GenericContainer<?> c, String name, long sinceEpochSecond) {
    Path file = file(name);
    Engine.client().logContainerCmd(c.getContainerId()).withStdOut(true).withStdErr(true).withFollowStream(true)
        .withSince((int) sinceEpochSecond).exec(new ResultCallback.Adapter<Frame>() {
          @Override
          public void onNext(Frame frame) {
            append(file, new String(frame.getPayload(), StandardCharsets.UTF_8));
          }
        });
  }

  private static synchronized void append(Path file, String text) {
    try {
      Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      // a log line lost is no reason to fail a test
    }
  }

  /** The lines of the container's log so far. */
  List<String> lines(String name) {
    try {
      return Files.isRegularFile(file(name)) ? Files.readAllLines(file(name), StandardCharsets.UTF_8) : List.of();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether the container's log holds {@code text} so far. */
  boolean contains(String name, String text) {
    try {
      return Files.isRegularFile(file(name)) && Files.readString(file(name), StandardCharsets.UTF_8).contains(text);
    } catch (IOException e) {
      return false;
    }
  }

  /** The lines of a daemon's log written at or after {@code sinceMillis} (lines without a time of their own are left out). */
  List<String> lines(String name, long sinceMillis) {
    return lines(name).stream().filter(l -> time(l) >= sinceMillis).toList();
  }

  /** The time a daemon's log line begins with (ISO-8601 with offset: cli's logback.xml) in epoch millis, or 0 when it has none. */
  static long time(String line) {
    int space = line.indexOf(' ');
    try {
      return space < 0 ? 0 : OffsetDateTime.parse(line.substring(0, space)).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      return 0;
    }
  }

  /**
   * Where the container's log is and its last {@code n} lines: what a failure names, so that a run
   * whose files are gone (a CI machine's) still shows why.
   */
  String tail(String name, int n) {
    List<String> all = lines(name);
    return file(name) + ", ending: " + String.join(" | ", all.subList(Math.max(0, all.size() - n), all.size()));
  }

  /** How many lines of the container's log hold {@code text}. */
  long count(String name, String text) {
    return lines(name).stream().filter(l -> l.contains(text)).count();
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
