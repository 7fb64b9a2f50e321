package org.coalition.handler.config;

import java.util.Collection;
import java.util.Locale;

/** The closest known word to a misspelt one (edit distance), for "did you mean" hints. */
public final class Suggest {
  private Suggest() {}

  /** The known word within a third of its length in edits (at least 2), or null. */
  public static String closest(String word, Collection<String> known) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String k : known) {
      int d = distance(word.toLowerCase(Locale.ROOT), k.toLowerCase(Locale.ROOT));
      if (d < bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    return best != null && bestDistance <= Math.max(2, best.length() / 3) ? best : null;
  }

  public static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
