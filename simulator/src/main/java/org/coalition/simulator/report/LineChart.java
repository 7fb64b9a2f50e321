package org.coalition.simulator.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.ArrayList;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * A line chart of a few series against one axis (a round, a time), with a title, a caption under
 * it, both axes named with their units, a legend naming each line, and a logarithmic value axis
 * when asked (levels from 1 to 1000, as the BILB paper's Figures 4-5 draw them); a line may be
 * drawn thick, as the paper draws its overloaded cluster. Written as {@link BarChart} is.
 */
public final class LineChart {
  private static final Color[] COLORS = {new Color(0x22, 0x22, 0x22), new Color(0x44, 0x77, 0xaa), new Color(0xcc, 0x66, 0x44),
      new Color(0x22, 0x88, 0x33), new Color(0xaa, 0x33, 0x77), new Color(0x66, 0xcc, 0xee), new Color(0xcc, 0xbb, 0x44)};

  private final String title;
  private final String across;
  private final String unit;
  private final String caption;
  private final boolean logarithmic;
  private final List<XYSeries> series = new ArrayList<>();
  private final List<Boolean> thick = new ArrayList<>();

  /**
   * A chart titled {@code title}, its lines along an axis {@code across} ("round"), their values
   * along an axis of {@code unit}, logarithmic or not, and under it {@code caption}.
   */
  public LineChart(String title, String across, String unit, boolean logarithmic, String caption) {
    if (across.isBlank() || unit.isBlank() || caption.isBlank()) {
      throw new IllegalArgumentException("a chart needs both axes' names with units and a caption");
    }
    this.title = title;
    this.across = across;
    this.unit = unit;
    this.logarithmic = logarithmic;
    this.caption = caption;
  }

  /**
   * A line through the points ({@code xs[i]}, {@code ys[i]}).
   *
   * @param name the line's name in the legend
   * @param xs the points' positions across
   * @param ys their values, finite (and above 0 on a logarithmic axis)
   * @param emphasised whether to draw it thick
   * @return this chart
   */
  public LineChart line(String name, List<? extends Number> xs, List<? extends Number> ys, boolean emphasised) {
    if (xs.size() != ys.size() || xs.isEmpty()) {
      throw new IllegalArgumentException("line " + name + " needs as many positions as values, at least one: " + xs.size() + ", " + ys.size());
    }
    XYSeries s = new XYSeries(name, false, true);
    for (int i = 0; i < xs.size(); i++) {
      double y = ys.get(i).doubleValue();
      if (!Double.isFinite(y) || logarithmic && y <= 0) {
        throw new IllegalArgumentException("line " + name + " has a value " + y + " this axis cannot show, at " + xs.get(i));
      }
      s.add(xs.get(i).doubleValue(), logarithmic ? Math.log10(y) : y);
    }
    series.add(s);
    thick.add(emphasised);
    return this;
  }

  /** Writes the chart; the format follows the extension (.svg or .png). */
  public void write(Path file) throws IOException {
    XYSeriesCollection data = new XYSeriesCollection();
    series.forEach(data::addSeries);
    NumberAxis x = new NumberAxis(across);
    NumberAxis y = new NumberAxis(unit);
    if (logarithmic) {
      // the values are their logarithms (line()), on a plain axis with a tick per decade labelled
      // 1, 10, 100: JFreeChart's LogAxis draws its labels as attributed strings, which SVG gets as
      // outlines rather than text
      y.setTickUnit(new NumberTickUnit(1, new PowersOfTen()));
      y.setAutoRangeIncludesZero(false);
    }
    y.setLabelAngle(Math.PI / 2); // upright: rotated text would be outlines, not text, in SVG
    XYLineAndShapeRenderer lines = new XYLineAndShapeRenderer(true, false);
    for (int i = 0; i < series.size(); i++) {
      lines.setSeriesPaint(i, COLORS[i % COLORS.length]);
      lines.setSeriesStroke(i, new BasicStroke(thick.get(i) ? 3.5f : 1.5f));
    }
    XYPlot plot = new XYPlot(data, x, y, lines);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    ChartFile.write(ChartFile.titled(new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true), caption), file);
  }

  /** A decade's label: the logarithm 2 is written 100. */
  private static final class PowersOfTen extends NumberFormat {
    private static final long serialVersionUID = 1L;
    private final DecimalFormat plain = new DecimalFormat("0.###");

    @Override
    public StringBuffer format(double logarithm, StringBuffer toAppendTo, FieldPosition pos) {
      return toAppendTo.append(plain.format(Math.pow(10, logarithm)));
    }

    @Override
    public StringBuffer format(long logarithm, StringBuffer toAppendTo, FieldPosition pos) {
      return format((double) logarithm, toAppendTo, pos);
    }

    @Override
    public Number parse(String source, ParsePosition parsePosition) {
      throw new UnsupportedOperationException("tick labels are only written");
    }
  }
}
