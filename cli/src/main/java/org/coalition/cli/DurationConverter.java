package org.coalition.cli;

import java.time.Duration;
import org.coalition.handler.config.Durations;
import picocli.CommandLine;

/** Every {@code Duration} option of the command line, in the site file's syntax ({@code 500ms}, {@code 30s}, {@code 10m}, {@code 2h}). */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
  @Override
  public Duration convert(String value) {
    try {
      return Durations.parse(value);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.TypeConversionException(e.getMessage());
    }
  }
}
