package org.coalition.slurm;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.Tool;

/**
 * The updates the daemon makes to one of its users' pending jobs: through slurmrestd for a job,
 * through the site's {@code scontrol} for an array task, named {@code ARRAY_TASK}. slurmrestd
 * updates no task by that name (24.11 refuses it; 22.05 reports an error), and an update to the
 * array's own job id, whose record ends as the array's last task, would reach every task of the
 * array; {@code scontrol} takes the task's name whichever record holds it, and splits the task off
 * when it is still in the array's record of pending tasks.
 */
interface JobUpdates {
  /** Holds (an administrator's hold) or releases the job. */
  void hold(boolean hold);

  /** Releases the job {@code points} of priority ahead of the jobs waiting here ({@code nice=-points}; an operator's to give). */
  void releaseAhead(int points);

  /** Sets the job's comment. */
  void comment(String comment);

  /** Makes the job as small as a replay needs ({@link SlurmRest#shrink}). */
  void shrink(int minutes);

  /** Through slurmrestd, as {@code user}. */
  static JobUpdates rest(SlurmRest rest, String id, String user) {
    return new JobUpdates() {
      @Override
      public void hold(boolean hold) {
        rest.hold(id, hold, user);
      }

      @Override
      public void releaseAhead(int points) {
        rest.releaseAhead(id, points, user);
      }

      @Override
      public void comment(String comment) {
        rest.comment(id, comment, user);
      }

      @Override
      public void shrink(int minutes) {
        rest.shrink(id, minutes, user);
      }
    };
  }

  /** Through the site's {@code scontrol} (with this process's rights: an operator's), for task {@code name}. */
  static Scontrol scontrol(List<String> scontrol, String name, Duration timeout) {
    return new Scontrol(scontrol, name, timeout);
  }

  /** Updates by {@code scontrol}; a failure is UNAVAILABLE (the daemon tries again next round). */
  record Scontrol(List<String> scontrol, String name, Duration timeout) implements JobUpdates {
    @Override
    public void hold(boolean hold) {
      run(hold ? "hold" : "release", name);
    }

    /** Released first: scontrol's release of a task sets no nice with it. */
    @Override
    public void releaseAhead(int points) {
      run("release", name);
      run("update", "jobid=" + name, "nice=-" + points);
    }

    @Override
    public void comment(String comment) {
      run("update", "jobid=" + name, "comment=" + comment);
    }

    @Override
    public void shrink(int minutes) {
      run("update", "jobid=" + name, "NumNodes=1", "NumTasks=1", "CPUsPerTask=1", "MinCPUsNode=1", "NumCPUs=1", "TimeLimit=" + minutes,
          "MinMemoryNode=" + SlurmRest.REPLAY_MEMORY_MB);
    }

    private void run(String... args) {
      Tool.Result r = new Tool(scontrol, Map.of(), timeout).run(List.of(args), null);
      if (r.exitCode() != 0) {
        String said = (r.stderr().isBlank() ? r.stdout() : r.stderr()).strip();
        // scontrol's own words: a task that ended meanwhile is no longer the daemon's to update
        Category category = said.contains("Invalid job id") || said.contains("Job/step already completing or completed")
            ? Category.REJECTED : Category.UNAVAILABLE;
        throw new HandlerException(category, "scontrol " + args[0] + " " + name + ": " + said);
      }
    }
  }
}
