package org.coalition.config;

import java.util.List;

/**
 * A site file that cannot be used: every problem found, each naming the file, the line and the
 * key, on one line: a value quoted in a problem has its line breaks and other control characters
 * written as escapes ({@code \n}, {@code \u2028}), so one problem is one line on a terminal and in
 * a log, whatever the file held.
 */
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  public ConfigException(List<String> problems) {
    super(String.join("\n", problems.stream().map(ConfigException::oneLine).toList()));
    this.problems = problems.stream().map(ConfigException::oneLine).toList();
  }

  public List<String> problems() {
    return problems;
  }

  /** {@code text} with every character that would break or hide a line written as an escape. */
  static String oneLine(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\n') {
        out.append("\\n");
      } else if (c == '\r') {
        out.append("\\r");
      } else if (c == '\t') {
        out.append("\\t");
      } else if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029' || c == '\u0085') {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
