package org.coalition.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The decisions a daemon logged ({@code decision=KIND key=value ... reason=REASON detail}, one per
 * line of its JSON log, in its {@code formattedMessage}), each with the moment it was logged: the benchmark's stopwatch. Lines that
 * are not decisions are skipped.
 */
final class DecisionLog {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern DECISION = Pattern.compile("site=(\\S+) decision=(\\S+) (.*?)reason=(\\S+) ?(.*)", Pattern.DOTALL);
  private static final Pattern PAIR = Pattern.compile("(\\w+)=(\\S+)");

  /** One decision: when (epoch milliseconds), where, what, about whom ({@code job}, {@code pilot}, {@code for}), why. */
  record Decision(long millis, String site, String kind, Map<String, String> subject, String reason, String detail) {
    String job() {
      return subject.getOrDefault("job", "");
    }

    String pilot() {
      return subject.getOrDefault("pilot", "");
    }
  }

  private DecisionLog() {}

  /** The decisions in the JSON log {@code file}, in its order. */
  static List<Decision> read(Path file) throws IOException {
    List<Decision> out = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      if (!line.startsWith("{") || !line.contains("decision=")) {
        continue;
      }
      JsonNode event = JSON.readTree(line);
      Matcher m = DECISION.matcher(event.path("formattedMessage").asText());
      if (!m.matches()) {
        continue;
      }
      Map<String, String> subject = new LinkedHashMap<>();
      Matcher pair = PAIR.matcher(m.group(3));
      while (pair.find()) {
        subject.put(pair.group(1), pair.group(2));
      }
      out.add(new Decision(event.path("timestamp").asLong(), m.group(1), m.group(2), subject, m.group(4), m.group(5)));
    }
    return out;
  }
}
