package org.coalition.simulator.swf;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A whole SWF log in memory: its header entries ("; Key: value") and its job lines, in file order. */
public record SwfTrace(Path file, Map<String, String> header, List<SwfJob> jobs) {
  public SwfTrace {
    header = Map.copyOf(header);
    jobs = List.copyOf(jobs);
  }

  /** A numeric header entry such as MaxProcs or UnixStartTime, when the file has it. */
  public Optional<Long> headerNumber(String key) {
    String value = header.get(key);
    if (value == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Long.parseLong(value.trim().split("\\s+")[0]));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
