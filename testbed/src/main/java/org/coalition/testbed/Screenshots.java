package org.coalition.testbed;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import javax.imageio.ImageIO;

/** What the dashboard tests check of a browser's screenshot beyond its page's text: that it shows something. */
public final class Screenshots {
  /** Fewer distinct colours than this, sampled every fourth pixel, is a blank or nearly blank page. */
  public static final int MIN_COLOURS = 20;

  private Screenshots() {}

  /** The distinct colours of a PNG, sampled every fourth pixel each way. */
  public static int colours(byte[] png) throws IOException {
    BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
    if (image == null) {
      throw new IOException("not an image a browser would write (" + png.length + " bytes)");
    }
    Set<Integer> colours = new HashSet<>();
    for (int y = 0; y < image.getHeight(); y += 4) {
      for (int x = 0; x < image.getWidth(); x += 4) {
        colours.add(image.getRGB(x, y));
      }
    }
    return colours.size();
  }
}
