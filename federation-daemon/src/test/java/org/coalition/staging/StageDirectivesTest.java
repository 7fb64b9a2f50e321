package org.coalition.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class StageDirectivesTest {
  @Test
  void readsTheFirstCommentBlockAsSbatchDoes() {
    String script = """
        #!/bin/bash
        #SBATCH --mem=100
        #COALITION --stage-in=data/in.csv

        #COALITION --stage-in=./params/../params/run.json
        # a comment
        echo go
        #COALITION --stage-in=after-the-first-command
        """;
    assertEquals(List.of("data/in.csv", "params/run.json"), StageDirectives.inputs(script));
  }

  @Test
  void aScriptWithoutDirectivesTakesNothing() {
    assertEquals(List.of(), StageDirectives.inputs("#!/bin/sh\n#SBATCH -n 1\n#COALITIONS are not ours\necho hi\n"));
  }

  @Test
  void pathsOutsideTheWorkingDirectoryAreRefused() {
    for (String bad : List.of("/etc/passwd", "../secret", "a/../../b", ".", "a\tb")) {
      StagingRefused e = assertThrows(StagingRefused.class, () -> StageDirectives.inputs("#!/bin/sh\n#COALITION --stage-in=" + bad + "\n"),
          bad);
      assertTrue(e.getMessage().startsWith("line 2 of the script: --stage-in="), e.getMessage());
    }
  }

  @Test
  void anUnknownDirectiveIsRefusedWithItsLine() {
    StagingRefused e = assertThrows(StagingRefused.class, () -> StageDirectives.inputs("#!/bin/sh\n\n#COALITION --stage-out=x\n"));
    assertTrue(e.getMessage().startsWith("line 3 of the script: '#COALITION --stage-out=x' is not a directive"), e.getMessage());
  }
}
