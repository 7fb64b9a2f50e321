package org.coalition.simulator.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BarChartTest {
  @TempDir Path dir;

  @Test
  void writesSvgAndPngByExtension() throws Exception {
    System.setProperty("java.awt.headless", "true");
    BarChart chart = new BarChart("Scores <test>", "points").bar("A&B", 3).bar("C", -1.5);
    Path svg = dir.resolve("c.svg");
    chart.write(svg);
    String text = Files.readString(svg);
    assertTrue(text.startsWith("<svg"), text);
    assertTrue(text.contains("Scores &lt;test&gt;") && text.contains("A&amp;B") && text.contains("-1.50"), text);
    Path png = dir.resolve("c.PNG");
    chart.write(png);
    BufferedImage image = ImageIO.read(png.toFile());
    assertEquals(800, image.getWidth());
  }

  @Test
  void badTargetsAreRefusedBeforeAnyWork() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BarChart.checkTarget(dir.resolve("c.jpg")));
    assertTrue(e.getMessage().endsWith("must end in .svg or .png"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> BarChart.checkTarget(dir.resolve("nowhere/c.svg")));
    assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new BarChart("t", "u").bar("x", Double.NaN));
  }
}
