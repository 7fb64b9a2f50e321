package org.coalition.config;

import java.util.List;

/** A site file that cannot be used: every problem found, each naming the file, the line and the key. */
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  public ConfigException(List<String> problems) {
    super(String.join("\n", problems));
    this.problems = List.copyOf(problems);
  }

  public List<String> problems() {
    return problems;
  }
}
