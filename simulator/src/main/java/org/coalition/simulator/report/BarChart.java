package org.coalition.simulator.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * A bar chart with a title, one labelled bar per value (negative values go below the axis),
 * written as SVG or PNG by the file's extension. Drawn by hand: no plotting dependency.
 */
public final class BarChart {
  private static final int WIDTH = 800;
  private static final int HEIGHT = 480;
  private static final int MARGIN = 70;

  private final String title;
  private final String unit;
  private final List<String> labels = new ArrayList<>();
  private final List<Double> values = new ArrayList<>();

  public BarChart(String title, String unit) {
    this.title = title;
    this.unit = unit;
  }

  public BarChart bar(String label, double value) {
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException("bar " + label + " has no finite value: " + value);
    }
    labels.add(label);
    values.add(value);
    return this;
  }

  /** Checks that {@code file} names a picture this class can write, before a long run starts. */
  public static void checkTarget(Path file) {
    String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (!name.endsWith(".svg") && !name.endsWith(".png")) {
      throw new IllegalArgumentException("--plot " + file + ": the file name must end in .svg or .png");
    }
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      throw new IllegalArgumentException("--plot " + file + ": folder " + parent + " does not exist");
    }
  }

  /** Writes the chart; the format follows the extension (.svg or .png). */
  public void write(Path file) throws IOException {
    checkTarget(file);
    if (file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".svg")) {
      Files.writeString(file, svg(), StandardCharsets.UTF_8);
    } else {
      ImageIO.write(png(), "png", file.toFile());
    }
  }

  private double max() {
    double m = 0;
    for (double v : values) {
      m = Math.max(m, v);
    }
    return m;
  }

  private double min() {
    double m = 0;
    for (double v : values) {
      m = Math.min(m, v);
    }
    return m;
  }

  /** The y pixel of {@code value}. */
  private double y(double value) {
    double top = max();
    double bottom = min();
    double span = top - bottom == 0 ? 1 : top - bottom;
    return MARGIN + (top - value) / span * (HEIGHT - 2 * MARGIN);
  }

  private double slot() {
    return (WIDTH - 2.0 * MARGIN) / Math.max(1, values.size());
  }

  String svg() {
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\">%n", WIDTH, HEIGHT));
    s.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, HEIGHT));
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"30\" font-size=\"18\" text-anchor=\"middle\">%s</text>%n",
        WIDTH / 2, escape(title)));
    s.append(String.format(Locale.ROOT, "<text x=\"15\" y=\"%d\" font-size=\"12\" transform=\"rotate(-90 15 %d)\" text-anchor=\"middle\">%s</text>%n",
        HEIGHT / 2, HEIGHT / 2, escape(unit)));
    double zero = y(0);
    for (int i = 0; i < values.size(); i++) {
      double v = values.get(i);
      double x = MARGIN + i * slot() + slot() * 0.15;
      double top = Math.min(y(v), zero);
      double height = Math.abs(y(v) - zero);
      s.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#4477aa\"/>%n",
          x, top, slot() * 0.7, height));
      s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%s</text>%n",
          x + slot() * 0.35, top - 4, format(v)));
      s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%s</text>%n",
          x + slot() * 0.35, HEIGHT - MARGIN + 20, escape(labels.get(i))));
    }
    s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"black\"/>%n",
        MARGIN, zero, WIDTH - MARGIN, zero));
    return s.append("</svg>\n").toString();
  }

  BufferedImage png() {
    BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, WIDTH, HEIGHT);
      g.setColor(Color.BLACK);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 18));
      centre(g, title, WIDTH / 2, 30);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
      g.drawString(unit, 5, MARGIN - 15);
      double zero = y(0);
      for (int i = 0; i < values.size(); i++) {
        double v = values.get(i);
        int x = (int) (MARGIN + i * slot() + slot() * 0.15);
        int top = (int) Math.min(y(v), zero);
        int height = (int) Math.round(Math.abs(y(v) - zero));
        g.setColor(new Color(0x44, 0x77, 0xaa));
        g.fillRect(x, top, (int) (slot() * 0.7), Math.max(1, height));
        g.setColor(Color.BLACK);
        int centre = (int) (x + slot() * 0.35);
        centre(g, format(v), centre, top - 4);
        centre(g, labels.get(i), centre, HEIGHT - MARGIN + 20);
      }
      g.setStroke(new BasicStroke(1));
      g.drawLine(MARGIN, (int) zero, WIDTH - MARGIN, (int) zero);
    } finally {
      g.dispose();
    }
    return image;
  }

  private static void centre(Graphics2D g, String text, int x, int y) {
    g.drawString(text, x - g.getFontMetrics().stringWidth(text) / 2, y);
  }

  private static String format(double v) {
    return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.3g", v);
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
