package org.coalition.api;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads samples from a Prometheus text exposition by name and label set, whatever the order of the labels. */
final class Exposition {
  private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})? (\\S+)$", Pattern.MULTILINE);
  private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  private Exposition() {}

  /** The value of the sample {@code name} whose labels are exactly {@code labels}; fails when there is none. */
  static double value(String text, String name, Map<String, String> labels) {
    Matcher m = SAMPLE.matcher(text);
    while (m.find()) {
      if (m.group(1).equals(name) && labels(m.group(2)).equals(labels)) {
        return Double.parseDouble(m.group(3));
      }
    }
    throw new AssertionError("no sample " + name + labels + " in:\n" + text);
  }

  private static Map<String, String> labels(String text) {
    Map<String, String> out = new LinkedHashMap<>();
    if (text != null) {
      Matcher m = LABEL.matcher(text);
      while (m.find()) {
        out.put(m.group(1), m.group(2));
      }
    }
    return out;
  }
}
