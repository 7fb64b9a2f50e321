package org.coalition.daemon.outputs;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A run's output as its home received it ({@link OutputFetch}, {@link OutputBlob}): both streams,
 * and the files it wrote, a checked tar in the home's spool ({@link org.coalition.staging.TarBundle}),
 * with what the check left out.
 */
public record CapturedOutput(byte[] stdout, byte[] stderr, Optional<Path> files, List<String> leftOut) {
  /** A run that wrote no files. */
  public CapturedOutput(byte[] stdout, byte[] stderr) {
    this(stdout, stderr, Optional.empty(), List.of());
  }
}
