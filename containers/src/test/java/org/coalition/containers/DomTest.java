package org.coalition.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class DomTest {
  private static final String PAGE = "<main><table id=\"sites\"><thead><tr><th>site</th><th>now</th></tr></thead>"
      + "<tbody><tr><td>north</td><td class=\"live\">live</td></tr>\n<tr><td>south &amp; co</td><td><b>gone</b></td></tr></tbody></table>"
      + "<table id=\"job\"><tbody><tr><th>ran at</th><td>south</td></tr></tbody></table></main>";

  @Test
  void readsTheBodyRowsOfTheNamedTableAsText() {
    assertEquals(List.of("north live", "south & co gone"), Dom.rows(PAGE, "sites"));
    assertEquals(List.of("ran at south"), Dom.rows(PAGE, "job"));
  }

  @Test
  void aTableThePageDoesNotHaveHasNoRows() {
    assertEquals(List.of(), Dom.rows(PAGE, "flows"));
    assertEquals(List.of(), Dom.rows(PAGE, "site"), "an id is matched whole");
  }
}
