package org.coalition.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.coalition.testbed.Command;
import org.coalition.testbed.Instance;

/** What the testbed's ordinary user types at each batch system, as its users do: submit a job, read how it ended. */
final class Users {
  private static final Pattern CONDOR_ID = Pattern.compile("(\\d+\\.\\d+) - ");

  private Users() {}

  /** Submits a Slurm batch job ({@code sbatch --parsable ...}); its id. */
  static String sbatch(Instance slurm, String... args) {
    return Command.of(slurm.tool("sbatch"), args).asUser(slurm.get("user")).run().requireSuccess().stdout().trim().split(";")[0];
  }

  /** Submits a Grid Engine job ({@code qsub -terse}); its id. */
  static String qsub(Instance sge, String... args) {
    List<String> all = new ArrayList<>(List.of("-terse"));
    all.addAll(List.of(args));
    return Command.of(sge.tool("qsub"), all.toArray(String[]::new)).asUser(sge.get("user")).run().requireSuccess().stdout().strip();
  }

  /** Submits an HTCondor submit description ({@code condor_submit -terse -}); its job id, CLUSTER.PROC. */
  static String condorSubmit(Instance condor, String description) {
    String terse = Command.of(condor.tool("condor_submit"), "-terse", "-").asUser(condor.get("user")).stdin(description).run().requireSuccess()
        .stdout();
    Matcher m = CONDOR_ID.matcher(terse);
    if (!m.find()) {
      throw new AssertionError("condor_submit -terse printed no job id: " + terse);
    }
    return m.group(1);
  }

  /**
   * A completed job's records in HTCondor's history, one line each: {@code ExitCode ExitBySignal CoalitionWhere}; blank while
   * there is none.
   */
  static String condorHistory(Instance condor, String id) {
    String[] parts = id.split("\\.");
    return Command.of(condor.tool("condor_history"), "-af", "ExitCode", "ExitBySignal", "CoalitionWhere", "-constraint",
        "ClusterId == " + parts[0] + " && ProcId == " + parts[1] + " && JobStatus == 4").run().requireSuccess().stdout();
  }
}
