package org.coalition.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.junit.jupiter.api.Test;

class BatchScriptsTest {
  /** The statement job_submit.lua writes (its HOOK), for a results folder and replay tool. */
  private static String hook(String results, String replay) {
    return "if [ -e " + quote(results) + "/\"$SLURM_JOB_ID\" ]; then exec " + quote(replay) + " " + quote(results)
        + "/\"$SLURM_JOB_ID\"; fi; ";
  }

  private static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }

  @Test
  void theFiltersStatementIsRemovedWhateverPathsItNames() {
    for (String results : List.of("/var/spool/coalition/results", "/srv/it's here", "/a b/c")) {
      String written = "#!/bin/bash\n#SBATCH -c 2\necho \"$SLURM_JOB_ID\"\n";
      String stored = "#!/bin/bash\n" + hook(results, "/usr/lib/coalition/coalition-replay") + "#SBATCH -c 2\necho \"$SLURM_JOB_ID\"\n";
      assertEquals(written, BatchScripts.withoutHook(stored, "7"), results);
    }
    // A second line that is only the statement (the script was one line and a newline).
    assertEquals("#!/bin/sh\n\n", BatchScripts.withoutHook("#!/bin/sh\n" + hook("/r", "/x") + "\n", "8"));
  }

  @Test
  void aScriptTheFilterDidNotWrapIsRefused() {
    for (String script : List.of("#!/bin/bash\necho hi\n", "#!/bin/bash", "#!/bin/bash\necho x; " + hook("/r", "/x") + "\n")) {
      HandlerException e = assertThrows(HandlerException.class, () -> BatchScripts.withoutHook(script, "9"));
      assertEquals(Category.REJECTED, e.category());
      assertTrue(e.getMessage().contains("job 9") && e.getMessage().contains("job_submit.lua"), e.getMessage());
    }
  }

  @Test
  void aMissingScontrolIsUnavailableAndNamesTheSetting() {
    HandlerException e = assertThrows(HandlerException.class,
        () -> BatchScripts.read(List.of("/nonexistent/scontrol"), "5", Duration.ofSeconds(5)));
    assertEquals(Category.UNAVAILABLE, e.category());
    assertTrue(e.getMessage().contains("'scontrol'"), e.getMessage());
  }

  @Test
  void aFailingScontrolReportsItsMessage() {
    HandlerException e = assertThrows(HandlerException.class,
        () -> BatchScripts.read(List.of("/bin/sh", "-c", "echo 'Invalid job id specified' >&2; exit 1", "scontrol"), "5",
            Duration.ofSeconds(5)));
    assertEquals(Category.UNAVAILABLE, e.category());
    assertTrue(e.getMessage().contains("Invalid job id specified") && e.getMessage().contains("exit 1"), e.getMessage());
  }
}
