package org.coalition.simulator.report;

import de.erichseifert.vectorgraphics2d.Document;
import de.erichseifert.vectorgraphics2d.VectorGraphics2D;
import de.erichseifert.vectorgraphics2d.svg.SVGProcessor;
import de.erichseifert.vectorgraphics2d.util.PageSize;
import java.awt.Color;
import java.awt.Font;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleEdge;

/** What every chart of this package shares: its caption under it, and its file, SVG (text stays text) or PNG by the extension. */
final class ChartFile {
  private static final int WIDTH = 800;
  private static final int HEIGHT = 480;

  private ChartFile() {
  }

  /** {@code chart} on white, with {@code caption} under it in up to three lines. */
  static JFreeChart titled(JFreeChart chart, String caption) {
    chart.setBackgroundPaint(Color.WHITE);
    TextTitle under = new TextTitle(caption, new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    under.setPosition(RectangleEdge.BOTTOM);
    under.setMaximumLinesToDisplay(3);
    chart.addSubtitle(under);
    return chart;
  }

  /** Checks that {@code file} names a picture a chart can be written to, before a long run starts. */
  static void checkTarget(Path file) {
    String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (!name.endsWith(".svg") && !name.endsWith(".png")) {
      throw new IllegalArgumentException("--plot " + file + ": the file name must end in .svg or .png");
    }
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      throw new IllegalArgumentException("--plot " + file + ": folder " + parent + " does not exist");
    }
  }

  /** Writes {@code chart} to {@code file}; the format follows the extension (.svg or .png). */
  static void write(JFreeChart chart, Path file) throws IOException {
    checkTarget(file);
    if (file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".svg")) {
      VectorGraphics2D g = new VectorGraphics2D();
      chart.draw(g, new Rectangle2D.Double(0, 0, WIDTH, HEIGHT));
      Document svg = new SVGProcessor().getDocument(g.getCommands(), new PageSize(0, 0, WIDTH, HEIGHT));
      try (OutputStream out = Files.newOutputStream(file)) {
        svg.writeTo(out);
      }
    } else {
      ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, HEIGHT);
    }
  }
}
