package org.coalition.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/** How commands print results: JSON for scripts, aligned tables for people. */
final class Output {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private Output() {}

  static void json(PrintWriter out, Object value) {
    try {
      out.println(JSON.writeValueAsString(value));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
    }
    out.flush();
  }

  /** A table with a header row; columns are left-aligned and padded to their widest cell. */
  static void table(PrintWriter out, List<String> header, List<List<String>> rows) {
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

  static String number(double value, int decimals) {
    return String.format(Locale.ROOT, "%." + decimals + "f", value);
  }
}
