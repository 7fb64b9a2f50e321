package org.coalition.containers;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a table of a page as a browser rendered it ({@code chromium --dump-dom}): the text of each
 * row of its body, cells separated by one space, as the Selenium check of the same dashboard reads
 * them (benchmarks' DashboardCheck). The dashboard's script builds its rows from text nodes only.
 */
final class Dom {
  private static final Pattern ROW = Pattern.compile("<tr[^>]*>(.*?)</tr>", Pattern.DOTALL);
  private static final Pattern CELL = Pattern.compile("<t[dh][^>]*>(.*?)</t[dh]>", Pattern.DOTALL);

  private Dom() {}

  /** The rows of the body of the table {@code id}; none when the page has no such table. */
  static List<String> rows(String html, String id) {
    Matcher table = Pattern.compile("<table[^>]*\\bid=\"" + Pattern.quote(id) + "\"[^>]*>.*?<tbody>(.*?)</tbody>", Pattern.DOTALL).matcher(html);
    List<String> rows = new ArrayList<>();
    if (!table.find()) {
      return rows;
    }
    Matcher row = ROW.matcher(table.group(1));
    while (row.find()) {
      List<String> cells = new ArrayList<>();
      Matcher cell = CELL.matcher(row.group(1));
      while (cell.find()) {
        cells.add(text(cell.group(1)));
      }
      rows.add(String.join(" ", cells));
    }
    return rows;
  }

  private static String text(String html) {
    return html.replaceAll("<[^>]*>", "").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'")
        .replace("&nbsp;", " ").replace("&amp;", "&").strip();
  }
}
