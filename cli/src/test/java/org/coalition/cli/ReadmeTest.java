package org.coalition.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * #51, problem 8: the README was a change log of issue numbers, and stale. It is for a newcomer:
 * what Coalition is, the two commands the project keeps working on a fresh machine, what works by
 * capability, and links that lead somewhere; the history lives in docs/history.md.
 */
class ReadmeTest {
  private static final Path ROOT = Path.of("..");
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)]*)?\\)");

  @Test
  void theReadmeIsForANewcomerNotAChangeLog() throws Exception {
    String readme = Files.readString(ROOT.resolve("README.md"));
    assertTrue(readme.contains("bin/coalition demo ") && readme.contains("bash .ci/run "), "the two commands");
    assertTrue(readme.contains("## What works today"), "what works, by capability");
    Matcher issue = Pattern.compile("(?i)issue #[0-9]+").matcher(readme);
    if (issue.find()) {
      fail("no issue numbers in the README (the history is in docs/history.md): " + issue.group());
    }
    assertTrue(Files.isRegularFile(ROOT.resolve("docs/history.md")));
  }

  @Test
  void everyRelativeLinkOfTheReadmeAndTheHistoryLeadsToAFile() throws Exception {
    List<String> broken = new ArrayList<>();
    for (Path page : List.of(ROOT.resolve("README.md"), ROOT.resolve("docs/history.md"))) {
      Matcher m = LINK.matcher(Files.readString(page));
      while (m.find()) {
        String target = m.group(1);
        if (!target.contains("://") && !Files.exists(page.getParent().resolve(target))) {
          broken.add(page + ": " + target);
        }
      }
    }
    assertEquals(List.of(), broken);
  }
}
