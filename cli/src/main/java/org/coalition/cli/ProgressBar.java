package org.coalition.cli;

import java.io.PrintWriter;
import java.util.function.DoubleConsumer;

/**
 * A progress bar on stderr for long runs: redrawn in place on a terminal, one line per 10% when
 * stderr is a file or a pipe, nothing with {@code --no-progress}. Thread-safe: parallel workers
 * report into it.
 */
public final class ProgressBar implements DoubleConsumer {
  private static final int WIDTH = 30;

  private final PrintWriter err;
  private final String label;
  private final boolean terminal;
  private final boolean enabled;
  private int shown = -1;

  public ProgressBar(PrintWriter err, String label, boolean enabled) {
    this.err = err;
    this.label = label;
    this.terminal = System.console() != null;
    this.enabled = enabled;
  }

  @Override
  public synchronized void accept(double fraction) {
    if (!enabled) {
      return;
    }
    int percent = (int) Math.floor(Math.max(0, Math.min(1, fraction)) * 100);
    if (terminal ? percent == shown : percent / 10 == shown / 10 && shown >= 0) {
      return;
    }
    shown = percent;
    int filled = percent * WIDTH / 100;
    String bar = "[" + "#".repeat(filled) + " ".repeat(WIDTH - filled) + "] " + percent + "% " + label;
    if (terminal) {
      err.print("\r" + bar + (percent == 100 ? "\n" : ""));
    } else {
      err.println(bar);
    }
    err.flush();
  }
}
