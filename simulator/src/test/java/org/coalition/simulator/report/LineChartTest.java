package org.coalition.simulator.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LineChartTest {
  @TempDir Path dir;

  @Test
  void writesLinesWithALegendDecadeTicksAndTheCaptionAsText() throws Exception {
    System.setProperty("java.awt.headless", "true");
    LineChart chart = new LineChart("Levels", "round", "level l (work units)", true, "Each site's level <caption>")
        .line("site 0", List.of(0, 1, 2), List.of(1000, 1000, 1000), true)
        .line("site 1", List.of(0, 1, 2), List.of(2, 20, 200), false);
    Path svg = dir.resolve("l.svg");
    chart.write(svg);
    String text = Files.readString(svg);
    assertTrue(text.contains(">Levels<") && text.contains(">round<") && text.contains(">level l (work units)<")
        && text.contains("Each site's level &lt;caption&gt;"), "title, both axes and the caption, as text");
    assertTrue(text.contains(">site 0<") && text.contains(">site 1<"), "a legend naming each line");
    assertTrue(text.contains(">10<") && text.contains(">100<") && text.contains(">1000<"), "a tick per decade, in plain numbers");
    Path png = dir.resolve("l.png");
    chart.write(png);
    BufferedImage image = ImageIO.read(png.toFile());
    assertEquals(800, image.getWidth());
  }

  @Test
  void aValueTheAxisCannotShowOrAMissingUnitIsRefused() {
    LineChart log = new LineChart("t", "round", "level", true, "c");
    assertThrows(IllegalArgumentException.class, () -> log.line("s", List.of(0, 1), List.of(1, 0), false), "0 on a logarithmic axis");
    assertThrows(IllegalArgumentException.class, () -> log.line("s", List.of(0), List.of(1, 2), false), "as many positions as values");
    assertThrows(IllegalArgumentException.class, () -> new LineChart("t", "round", " ", false, "c"));
    assertThrows(IllegalArgumentException.class, () -> log.write(dir.resolve("l.jpg")));
  }
}
