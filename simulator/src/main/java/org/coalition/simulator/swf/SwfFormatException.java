package org.coalition.simulator.swf;

import java.nio.file.Path;

/** A line of an SWF file that is not SWF: says which file, which line and why. */
public final class SwfFormatException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final long line;

  public SwfFormatException(Path file, long line, String reason) {
    super(file + ":" + line + ": " + reason);
    this.file = file;
    this.line = line;
  }

  public Path file() {
    return file;
  }

  public long line() {
    return line;
  }
}
