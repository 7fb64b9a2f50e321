package org.coalition.handler.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads one mapping of a site file: each typed getter records a problem (with file, line and
 * dotted key) instead of throwing, so that one check reports everything that is wrong; keys
 * nobody asked for are reported as unknown, with the closest known key as a suggestion.
 */
public final class ConfigSection {
  /** A size: digits, then an optional binary unit. */
  private static final Pattern SIZE = Pattern.compile("([0-9]{1,15})\\s*([KMGT]?)(?:i?B)?");


  private final String file;
  private final String prefix;
  private final Map<String, Node> map;
  private final int line;
  private final List<String> problems;
  private final Set<String> known = new LinkedHashSet<>();

  private ConfigSection(String file, String prefix, Map<String, Node> map, int line, List<String> problems) {
    this.file = file;
    this.prefix = prefix;
    this.map = map;
    this.line = line;
    this.problems = problems;
  }

  @SuppressWarnings("unchecked")
  public static ConfigSection of(String file, String prefix, Node node, List<String> problems) {
    if (node.value() instanceof Map<?, ?> m) {
      return new ConfigSection(file, prefix, (Map<String, Node>) m, node.line(), problems);
    }
    problems.add(file + ":" + node.line() + ": " + (prefix.isEmpty() ? "the file" : prefix) + " must be a mapping of keys to values");
    return new ConfigSection(file, prefix, new LinkedHashMap<>(), node.line(), problems);
  }

  /** Where this mapping is in the file, e.g. {@code handlers[0]}. */
  public String prefix() {
    return prefix;
  }

  private String key(String k) {
    return prefix.isEmpty() ? k : prefix + "." + k;
  }

  public void problem(String k, String message) {
    problems.add(where(k) + ": " + message);
  }

  /**
   * Where key {@code k} is, as problems name it ({@code FILE:LINE: PREFIX.k}; its section's line
   * when it is missing): for problems found after the file is read.
   */
  public String where(String k) {
    Node n = map.get(k);
    return file + ":" + (n != null ? n.line() : line) + ": " + key(k);
  }

  /** Where each key written in this mapping is ({@link #where}), by its dotted key: for problems found later. */
  public Map<String, String> places() {
    Map<String, String> out = new LinkedHashMap<>();
    map.keySet().forEach(k -> out.put(key(k), where(k)));
    return out;
  }

  public boolean has(String k) {
    known.add(k);
    return map.containsKey(k) && map.get(k).value() != null;
  }

  /** A scalar; empty when missing and {@code required} is false (the problem is recorded when it is true). */
  public String string(String k, String fallback, boolean required) {
    known.add(k);
    Node n = map.get(k);
    if (n == null || n.value() == null) {
      if (required) {
        problems.add(file + ":" + line + ": " + key(k) + ": missing; it is required");
      }
      return fallback;
    }
    if (!(n.value() instanceof String s)) {
      problem(k, "must be a single value, not a list or mapping");
      return fallback;
    }
    return s;
  }

  /** {@code true} or {@code false}; {@code fallback} when missing or wrong (the problem is recorded). */
  public boolean flag(String k, boolean fallback) {
    String s = string(k, null, false);
    if (s == null) {
      return fallback;
    }
    if (!s.equals("true") && !s.equals("false")) {
      problem(k, "must be true or false, was '" + (s.length() <= 40 ? s : s.substring(0, 40) + "...") + "'");
      return fallback;
    }
    return Boolean.parseBoolean(s);
  }

  /**
   * A command: a list of words, or one word; the first must be an absolute path or a name to look
   * up on the PATH. {@code fallback} when missing.
   */
  public List<String> command(String k, List<String> fallback) {
    List<String> words = words(k, null, "a command", "[/usr/bin/java, -jar, /opt/coalition/coalition.jar, pilot]");
    if (words == null) {
      return fallback;
    }
    if (words.size() == 1 && words.get(0).strip().contains(" ")) {
      // one string, as on a command line: its words, split at spaces (no shell: quotes and $ are not read)
      String line = words.get(0).strip();
      if (line.chars().anyMatch(c -> "\"'\\$`".indexOf(c) >= 0)) {
        problem(k, "quotes, backslashes and $ are not read in a command written as one string; give it as a list of words,"
            + " e.g. [/usr/bin/java, -jar, /opt/coalition/coalition.jar, pilot]");
        return fallback;
      }
      words = List.of(line.split("\\s+"));
    }
    if (words.isEmpty() || words.get(0).isBlank() || (words.get(0).contains("/") && !words.get(0).startsWith("/"))) {
      problem(k, "the command must start with an absolute path or a program name, was " + words);
      return fallback;
    }
    return words;
  }

  /**
   * A list of words, or one word; {@code fallback} when missing or wrong. Messages call it
   * {@code what} ("a command") and show {@code example}.
   */
  public List<String> words(String k, List<String> fallback, String what, String example) {
    known.add(k);
    Node n = map.get(k);
    if (n == null || n.value() == null) {
      return fallback;
    }
    List<String> words = new ArrayList<>();
    if (n.value() instanceof String s) {
      words.add(s);
    } else if (n.value() instanceof List<?> list) {
      for (Object o : list) {
        if (!(o instanceof Node w) || !(w.value() instanceof String s)) {
          problem(k, "must be " + what + ": a list of words, e.g. " + example);
          return fallback;
        }
        words.add(s);
      }
    } else {
      problem(k, "must be " + what + ": a list of words, or one word");
      return fallback;
    }
    return List.copyOf(words);
  }

  public double number(String k, double fallback, double min, double max) {
    String s = string(k, null, false);
    if (s == null) {
      return fallback;
    }
    try {
      double v = Double.parseDouble(s.replace("_", ""));
      if (!(v >= min && v <= max)) {
        problem(k, "must be between " + fmt(min) + " and " + fmt(max) + ", was " + s);
        return fallback;
      }
      return v;
    } catch (NumberFormatException e) {
      problem(k, "must be a number, was '" + s + "'");
      return fallback;
    }
  }

  public int integer(String k, int fallback, int min, int max) {
    double v = number(k, fallback, min, max);
    if (v != Math.rint(v)) {
      problem(k, "must be a whole number, was " + v);
      return fallback;
    }
    return (int) v;
  }

  /**
   * A size in bytes in [{@code min}, {@code max}]: a whole number, or one with a binary unit
   * ({@code 512K}, {@code 100M}, {@code 1G}, {@code 2T}; {@code KiB}, {@code MiB}... too).
   */
  public long bytes(String k, long fallback, long min, long max) {
    String s = string(k, null, false);
    if (s == null) {
      return fallback;
    }
    Matcher m = SIZE.matcher(s.strip());
    if (!m.matches()) {
      problem(k, "must be a size such as 512M, 1G or 10G (bytes, or K, M, G, T), was '" + s + "'");
      return fallback;
    }
    int shift = m.group(2).isEmpty() ? 0 : 10 * ("KMGT".indexOf(m.group(2)) + 1);
    long v = Long.parseLong(m.group(1));
    long bytes = v > (Long.MAX_VALUE >> shift) ? Long.MAX_VALUE : v << shift;
    if (bytes < min || bytes > max) {
      problem(k, "must be between " + min + " and " + max + " bytes, was " + s);
      return fallback;
    }
    return bytes;
  }

  public Duration duration(String k, Duration fallback, Duration min) {
    String s = string(k, null, false);
    if (s == null) {
      return fallback;
    }
    Duration d;
    try {
      d = Durations.parse(s);
    } catch (IllegalArgumentException e) {
      problem(k, e.getMessage());
      return fallback;
    }
    if (d.compareTo(min) < 0) {
      problem(k, "must be at least " + min.toMillis() + " ms, was " + s);
      return fallback;
    }
    return d;
  }

  /** A duration in [{@code min}, {@code max}]; {@code why} says what the upper bound protects. */
  public Duration duration(String k, Duration fallback, Duration min, Duration max, String why) {
    Duration d = duration(k, fallback, min);
    if (d.compareTo(max) > 0) {
      problem(k, "must be at most " + max.toSeconds() + " s (" + why + "), was " + string(k, null, false));
      return fallback;
    }
    return d;
  }

  public Path absolutePath(String k, boolean required) {
    String s = string(k, null, required);
    if (s == null) {
      return null;
    }
    Path p = Path.of(s);
    if (!p.isAbsolute()) {
      problem(k, "must be an absolute path, was '" + s + "'");
      return null;
    }
    return p;
  }

  public <E extends Enum<E>> E choice(String k, Class<E> type, E fallback) {
    String s = string(k, null, false);
    if (s == null) {
      return fallback;
    }
    for (E e : type.getEnumConstants()) {
      if (e.name().equalsIgnoreCase(s.replace('-', '_'))) {
        return e;
      }
    }
    List<String> names = new ArrayList<>();
    for (E e : type.getEnumConstants()) {
      names.add(e.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    }
    problem(k, "must be one of " + String.join(", ", names) + ", was '" + s + "'");
    return fallback;
  }

  /**
   * The value under {@code k} as a section of its own, named {@code PREFIX.k} in messages, its
   * problems going to the same list; null when missing.
   */
  public ConfigSection section(String k) {
    Node n = node(k);
    return n == null || n.value() == null ? null : of(file, key(k), n, problems);
  }

  public Node node(String k) {
    known.add(k);
    return map.get(k);
  }

  /** Reports every key of this mapping that no getter asked for. */
  public void rejectUnknown() {
    for (Map.Entry<String, Node> e : map.entrySet()) {
      if (!known.contains(e.getKey())) {
        String near = Suggest.closest(e.getKey(), known);
        problems.add(file + ":" + e.getValue().line() + ": " + key(e.getKey()) + ": unknown key"
            + (near == null ? "; known keys here: " + String.join(", ", known) : " (did you mean '" + near + "'?)"));
      }
    }
  }

  private static String fmt(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }
}
