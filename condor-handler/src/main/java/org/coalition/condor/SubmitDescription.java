package org.coalition.condor;

import java.util.List;
import java.util.Map;

/**
 * Writes HTCondor submit descriptions: the "new" quoting of arguments and environment (a value in
 * double quotes; an item with spaces or quotes in single quotes, quotes doubled). Values HTCondor
 * cannot carry (a newline) are refused with a message naming them.
 */
final class SubmitDescription {
  private final StringBuilder text = new StringBuilder();

  /** Adds {@code key = value}; a value must be one line. */
  SubmitDescription set(String key, String value) {
    if (value.contains("\n") || value.contains("\r")) {
      throw new IllegalArgumentException(key + " must be one line for HTCondor: '" + value + "'");
    }
    text.append(key).append(" = ").append(value).append('\n');
    return this;
  }

  /** Adds a raw line (a site's native specification). */
  SubmitDescription line(String line) {
    text.append(line).append('\n');
    return this;
  }

  SubmitDescription arguments(List<String> args) {
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < args.size(); i++) {
      b.append(i == 0 ? "" : " ").append(item(args.get(i), "argument"));
    }
    return set("arguments", b.append('"').toString());
  }

  SubmitDescription environment(Map<String, String> env) {
    StringBuilder b = new StringBuilder("\"");
    env.forEach((k, v) -> b.append(b.length() == 1 ? "" : " ").append(k).append('=').append(item(v, "environment value of " + k)));
    return set("environment", b.append('"').toString());
  }

  /** The description, ending with {@code queue}. */
  String queue() {
    return text + "queue\n";
  }

  @Override
  public String toString() {
    return text.toString();
  }

  /**
   * {@code value} as HTCondor reads it back: a {@code $(} that would start a macro written
   * {@code $(DOLLAR)(}; any other {@code $} is already literal. (Writing every {@code $} as
   * {@code $(DOLLAR)} breaks {@code $$}: the first expansion and the second reference make
   * {@code $$(DOLLAR)}, a match-time expression, and the job is held.) A {@code $$(} cannot be
   * carried at all: HTCondor would expand it when the job is matched.
   *
   * @throws IllegalArgumentException when the value holds {@code $$(}
   */
  static String literal(String value) {
    if (value.contains("$$(")) {
      throw new IllegalArgumentException("HTCondor reads '$$(' as a match-time expression, so a value cannot carry it: '" + value + "'");
    }
    return value.replace("$(", "$(DOLLAR)(");
  }

  private static String item(String value, String what) {
    if (value.contains("\n") || value.contains("\r")) {
      throw new IllegalArgumentException("an " + what + " must be one line for HTCondor");
    }
    String quoted = literal(value).replace("\"", "\"\"");
    if (value.isEmpty() || value.matches(".*[\\s'].*")) {
      quoted = "'" + quoted.replace("'", "''") + "'";
    }
    return quoted;
  }
}
