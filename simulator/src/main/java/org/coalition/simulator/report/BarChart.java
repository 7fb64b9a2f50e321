package org.coalition.simulator.report;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.labels.CategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.StatisticalBarRenderer;
import org.jfree.data.category.CategoryDataset;
import org.jfree.data.statistics.DefaultStatisticalCategoryDataset;

/**
 * A bar chart with a title, a caption under it, named axes with the values' unit, one labelled bar per value (negative values go below the axis), a value
 * axis with ticks, an error bar where a standard deviation is known, and the value at each bar
 * (past a dozen bars they lie horizontally, so that every label stays readable);
 * written as SVG (text stays text) or PNG by the file's extension. Drawn by JFreeChart, the SVG
 * through VectorGraphics2D (docs/decisions/0007-charts.md says why these two).
 */
public final class BarChart {
  /**
   * More bars than this and the bars lie horizontally, one label per line, so that every label
   * stays readable (JFreeChart draws slanted labels as outlines, which SVG readers cannot search).
   */
  private static final int VERTICAL_BARS = 12;

  private final String title;
  private final String categories;
  private final String unit;
  private final String caption;
  private final List<String> labels = new ArrayList<>();
  private final List<Double> values = new ArrayList<>();
  private final List<Double> deviations = new ArrayList<>();

  /**
   * A chart titled {@code title}, its bars named along an axis of {@code categories} ("site"), their
   * values along an axis of {@code unit} ("hours"), and under it {@code caption}: what is measured
   * and how, for a reader who has only the picture.
   */
  public BarChart(String title, String categories, String unit, String caption) {
    if (unit.isBlank() || caption.isBlank()) {
      throw new IllegalArgumentException("a chart needs the unit of its values and a caption");
    }
    this.title = title;
    this.categories = categories;
    this.unit = unit;
    this.caption = caption;
  }

  /** A bar of {@code value}, without an error bar. */
  public BarChart bar(String label, double value) {
    return bar(label, value, 0);
  }

  /** A bar of {@code value} with an error bar of one standard deviation {@code std} either side. */
  public BarChart bar(String label, double value, double std) {
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException("bar " + label + " has no finite value: " + value);
    }
    if (!Double.isFinite(std) || std < 0) {
      throw new IllegalArgumentException("bar " + label + " has a standard deviation that is not a finite number >= 0: " + std);
    }
    labels.add(label);
    values.add(value);
    deviations.add(std);
    return this;
  }

  /** Checks that {@code file} names a picture this class can write, before a long run starts. */
  public static void checkTarget(Path file) {
    ChartFile.checkTarget(file);
  }

  /** Writes the chart; the format follows the extension (.svg or .png). */
  public void write(Path file) throws IOException {
    ChartFile.write(chart(), file);
  }

  private JFreeChart chart() {
    DefaultStatisticalCategoryDataset data = new DefaultStatisticalCategoryDataset();
    for (int i = 0; i < values.size(); i++) {
      data.add(values.get(i), deviations.get(i), "values", labels.get(i));
    }
    CategoryAxis names = new CategoryAxis(categories);
    names.setMaximumCategoryLabelLines(2); // "site 3 federated" wraps rather than ends in "..."
    NumberAxis axis = new NumberAxis(unit);
    StatisticalBarRenderer bars = new StatisticalBarRenderer();
    bars.setSeriesPaint(0, new Color(0x44, 0x77, 0xaa));
    bars.setErrorIndicatorPaint(Color.BLACK);
    bars.setDefaultItemLabelGenerator(new ValueLabels());
    bars.setDefaultItemLabelsVisible(true);
    CategoryPlot plot = new CategoryPlot(data, names, axis, bars);
    plot.setOrientation(labels.size() > VERTICAL_BARS ? PlotOrientation.HORIZONTAL : PlotOrientation.VERTICAL);
    if (plot.getOrientation() == PlotOrientation.VERTICAL) {
      axis.setLabelAngle(Math.PI / 2); // the unit upright beside the axis: rotated text would be drawn as outlines, not text, in SVG
    }
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    return ChartFile.titled(new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, false), caption);
  }

  /** The value above each bar: whole units from 100 up, three significant digits below. */
  private static final class ValueLabels implements CategoryItemLabelGenerator {
    @Override
    public String generateLabel(CategoryDataset dataset, int row, int column) {
      double v = dataset.getValue(row, column).doubleValue();
      return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.3g", v);
    }

    @Override
    public String generateRowLabel(CategoryDataset dataset, int row) {
      return dataset.getRowKey(row).toString();
    }

    @Override
    public String generateColumnLabel(CategoryDataset dataset, int column) {
      return dataset.getColumnKey(column).toString();
    }
  }
}
