package org.coalition.simulator.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BarChartTest {
  @TempDir Path dir;

  @Test
  void writesSvgAndPngByExtension() throws Exception {
    System.setProperty("java.awt.headless", "true");
    BarChart chart = new BarChart("Scores <test>", "case", "points", "Points per case <caption>").bar("A&B", 3).bar("C", -1.5);
    Path svg = dir.resolve("c.svg");
    chart.write(svg);
    String text = Files.readString(svg);
    assertTrue(text.contains("<svg"), text);
    assertTrue(text.contains("Scores &lt;test&gt;") && text.contains("A&amp;B") && text.contains("-1.50"), text);
    assertTrue(text.contains("Points per case &lt;caption&gt;") && text.contains(">points<") && text.contains(">case<"),
        "the caption and both axes' names are in the picture, as text: " + text);
    Path png = dir.resolve("c.PNG");
    chart.write(png);
    BufferedImage image = ImageIO.read(png.toFile());
    assertEquals(800, image.getWidth());
  }

  @Test
  void theSvgHasAxisTicksAndPastADozenBarsEveryLabelOnALineOfItsOwn() throws Exception {
    BarChart chart = new BarChart("Many sites", "site", "score S", "Mean score per site over the rounds");
    for (int i = 1; i <= 13; i++) {
      chart.bar("site " + i, i / 10.0, 0.05);
    }
    Path svg = dir.resolve("many.svg");
    chart.write(svg);
    String text = Files.readString(svg);
    for (String tick : new String[] {">0.0<", ">0.5<", ">1.0<"}) {
      assertTrue(text.contains(tick), "a value-axis tick " + tick);
    }
    // Every label is searchable text, each at its own height: the bars lie horizontally.
    Matcher m = Pattern.compile("y=\"([0-9.]+)\">site (\\d+)<").matcher(text);
    Set<String> heights = new HashSet<>();
    int found = 0;
    while (m.find()) {
      heights.add(m.group(1));
      found++;
    }
    assertEquals(13, found, "13 labels as text");
    assertEquals(13, heights.size(), "13 labels on 13 lines");
    assertThrows(IllegalArgumentException.class, () -> new BarChart("t", "c", "u", "a caption").bar("x", 1, -1));
    assertThrows(IllegalArgumentException.class, () -> new BarChart("t", "c", "u", " "), "#51, problem 10: no chart without a caption");
  }
}
