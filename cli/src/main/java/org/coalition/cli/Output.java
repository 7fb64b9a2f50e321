package org.coalition.cli;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.coalition.handler.config.Durations;
import org.coalition.simulator.replay.ReplayResult;

/** How commands print results: JSON for scripts, aligned tables for people. */
public final class Output {
  /**
   * Values as a site file writes them: a duration as {@code 30s}, a path as its text, an empty
   * {@code Optional} as null.
   */
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
      .registerModule(new SimpleModule("coalition-output")
          .addSerializer(Duration.class, new StdSerializer<>(Duration.class) {
            @Override
            public void serialize(Duration d, JsonGenerator gen, SerializerProvider provider) throws IOException {
              gen.writeString(duration(d));
            }
          })
          .addSerializer(Path.class, new ToStringSerializer(Path.class))
          .addSerializer(optionals())
          .setMixInAnnotation(ReplayResult.class, ReplayResultJson.class));

  /** Adds the replay's derived rate to the record's components in {@code --json}. */
  private abstract static class ReplayResultJson {
    @JsonProperty
    abstract double eventsPerSecond();
  }

  private Output() {}

  public static void json(PrintWriter out, Object value) {
    try {
      out.println(JSON.writeValueAsString(value));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
    }
    out.flush();
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static StdSerializer<Optional<?>> optionals() {
    return new StdSerializer<>((Class<Optional<?>>) (Class) Optional.class) {
      @Override
      public void serialize(Optional<?> o, JsonGenerator gen, SerializerProvider provider) throws IOException {
        if (o.isPresent()) {
          provider.defaultSerializeValue(o.get(), gen);
        } else {
          gen.writeNull();
        }
      }
    };
  }

  /** A duration in the site file's form: the largest of d, h, m, s, ms that writes it whole. */
  public static String duration(Duration d) {
    return Durations.format(d);
  }

  /** A table with a header row; columns are left-aligned and padded to their widest cell. */
  public static void table(PrintWriter out, List<String> header, List<List<String>> rows) {
    int[] width = new int[header.size()];
    for (int c = 0; c < header.size(); c++) {
      width[c] = header.get(c).length();
      for (List<String> row : rows) {
        width[c] = Math.max(width[c], row.get(c).length());
      }
    }
    row(out, header, width);
    for (List<String> r : rows) {
      row(out, r, width);
    }
    out.flush();
  }

  private static void row(PrintWriter out, List<String> cells, int[] width) {
    StringBuilder line = new StringBuilder();
    for (int c = 0; c < cells.size(); c++) {
      line.append(c == 0 ? "" : "  ").append(String.format(Locale.ROOT, "%-" + width[c] + "s", cells.get(c)));
    }
    out.println(line.toString().stripTrailing());
  }

  public static String number(double value, int decimals) {
    return String.format(Locale.ROOT, "%." + decimals + "f", value);
  }
}
