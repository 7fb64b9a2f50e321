package org.coalition.testbed;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/** One started system, as described by its {@code testbed.properties}. */
public final class Instance {
  private final String name;
  private final Path file;
  private final Properties properties;

  Instance(String name, Path file, Properties properties) {
    this.name = name;
    this.file = file;
    this.properties = properties;
  }

  public String name() {
    return name;
  }

  /** A value the scripts wrote; a missing key is an error naming the file. */
  public String get(String key) {
    String value = properties.getProperty(key);
    if (value == null || value.isBlank()) {
      throw new TestbedNotUpException(
          "testbed instance '" + name + "' has no '" + key + "' in " + file
              + "; rerun testbed/up to rewrite it");
    }
    return value.trim();
  }

  public Path path(String key) {
    return Path.of(get(key));
  }

  /** A command-line tool from the instance's wrapper folder (sets SLURM_CONF, enters the chroot...). */
  public Path tool(String name) {
    Path tool = path("bin").resolve(name);
    if (!Files.isExecutable(tool)) {
      throw new TestbedNotUpException("testbed instance '" + this.name + "' has no tool " + tool);
    }
    return tool;
  }

  /** The first line of a file the instance names, such as a JWT token file. */
  public String readFirstLine(String key) {
    Path path = path(key);
    try {
      return Files.readAllLines(path, StandardCharsets.UTF_8).stream()
          .findFirst()
          .map(String::trim)
          .orElseThrow(() -> new TestbedNotUpException(path + " is empty; rerun testbed/up"));
    } catch (IOException e) {
      throw new TestbedNotUpException("cannot read " + path + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return name + " (" + file + ")";
  }
}
