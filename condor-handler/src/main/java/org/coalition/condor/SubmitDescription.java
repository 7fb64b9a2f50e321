package org.coalition.condor;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes HTCondor submit descriptions: the "new" quoting of arguments and environment (a value in
 * double quotes; an item with spaces or quotes in single quotes, quotes doubled). Values HTCondor
 * cannot carry (a newline) are refused with a message naming them.
 */
final class SubmitDescription {
  /** A {@code $} that starts a submit-time macro or macro function. */
  private static final Pattern MACRO = Pattern.compile("\\$(?=[A-Za-z_]*\\()");
  /** A match-time expression, which no escape survives. */
  private static final Pattern MATCH_TIME = Pattern.compile("\\$\\$[A-Za-z_]*\\(");
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private final StringBuilder text = new StringBuilder();

  /** Adds {@code key = value}; a value must be one line, and may not end with a backslash (which would join the next line to it). */
  SubmitDescription set(String key, String value) {
    if (value.contains("\n") || value.contains("\r")) {
      throw new IllegalArgumentException(key + " must be one line for HTCondor: '" + value + "'");
    }
    if (value.endsWith("\\")) {
      throw new IllegalArgumentException(key + " may not end with a backslash for HTCondor, which would read the next line as part of it: '"
          + value + "'");
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
    env.forEach((k, v) -> {
      if (k == null || !NAME.matcher(k).matches()) {
        throw new IllegalArgumentException("'" + k + "' is not an environment variable's name (letters, digits, _; not a digit first)");
      }
      b.append(b.length() == 1 ? "" : " ").append(k).append('=').append(item(v, "environment value of " + k));
    });
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
   * {@code value} as HTCondor reads it back: a {@code $} that would start a macro or a macro
   * function ({@code $(x)}, {@code $ENV(x)}, {@code $RANDOM_INTEGER(...)}) written
   * {@code $(DOLLAR)}; any other {@code $} is already literal. (Writing every {@code $} as
   * {@code $(DOLLAR)} breaks {@code $$}: the first expansion and the second reference make
   * {@code $$(DOLLAR)}, a match-time expression, and the job is held.) A {@code $$(} cannot be
   * carried at all: HTCondor would expand it when the job is matched. Checked with HTCondor
   * 23.9's {@code condor_submit -dry-run}.
   *
   * @throws IllegalArgumentException when the value holds {@code $$(} or {@code $$NAME(}
   */
  static String literal(String value) {
    if (MATCH_TIME.matcher(value).find()) {
      throw new IllegalArgumentException("HTCondor reads '$$(' or '$$NAME(' as a match-time expression, so a value cannot carry it: '" + value + "'");
    }
    return MACRO.matcher(value).replaceAll(Matcher.quoteReplacement("$(DOLLAR)"));
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
