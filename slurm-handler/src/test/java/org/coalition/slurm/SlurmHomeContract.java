package org.coalition.slurm;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.coalition.handler.HomeQueue;
import org.coalition.handler.HomeQueueContract;
import org.coalition.testbed.Instance;

/**
 * The shared home contract ({@link HomeQueueContract}) on a real Slurm cluster of the testbed: users
 * opt in with plain {@code sbatch} to partition {@code federated} (the project's job_submit.lua),
 * and Slurm's own record of a job's end is its {@code JobState} and {@code ExitCode}.
 */
abstract class SlurmHomeContract extends HomeQueueContract {
  private final Instance slurm;
  private final String name;

  SlurmHomeContract(String name) {
    this.name = name;
    this.slurm = SlurmHandlerIT.instance(name);
  }

  @Override
  protected HomeQueue connect() {
    return SlurmFilterIT.handler(name);
  }

  @Override
  protected void close(HomeQueue home) {
    ((SlurmHandler) home).close();
  }

  @Override
  protected void observe(HomeQueue home) {
    ((SlurmHandler) home).observe();
  }

  @Override
  protected int totalCores() {
    return Integer.parseInt(slurm.get("cpus"));
  }

  @Override
  protected Path jobsFolder() {
    return slurm.path("jobs.dir");
  }

  @Override
  protected Submitted submit(Path dir, Path script, int cores, boolean optedIn) {
    String id = SlurmFilterIT.sbatch(slurm, "--parsable", "-p", slurm.get(optedIn ? "federated.partition" : "partition"), "-c",
        Integer.toString(cores), "--mem=100", "-D", dir.toString(), "-o", dir + "/%j.out", "-e", dir + "/%j.err", script.toString());
    return new Submitted(id, dir.resolve(id + ".out"), dir.resolve(id + ".err"));
  }

  /** {@code sbatch --array=0-N}: tasks JOB_0 to JOB_N-1, each its own output and error files ({@code %A_%a}). */
  @Override
  protected List<Submitted> submitArray(Path dir, Path script, int tasks) {
    String job = SlurmFilterIT.sbatch(slurm, "--parsable", "--array=0-" + (tasks - 1), "-p", slurm.get("federated.partition"), "-c", "1",
        "--mem=100", "-D", dir.toString(), "-o", dir + "/%A_%a.out", "-e", dir + "/%A_%a.err", script.toString());
    List<Submitted> out = new ArrayList<>();
    for (int t = 0; t < tasks; t++) {
      out.add(new Submitted(job + "_" + t, dir.resolve(job + "_" + t + ".out"), dir.resolve(job + "_" + t + ".err")));
    }
    return out;
  }

  @Override
  protected String occupy(int cores) {
    return SlurmFilterIT.sbatch(slurm, "--parsable", "-p", slurm.get("partition"), "-c", Integer.toString(cores), "--mem=100",
        "-o", "/dev/null", "--wrap", "sleep 900");
  }

  @Override
  protected void cancel(String id) {
    SlurmHandlerIT.run(slurm, "scancel", id);
  }

  @Override
  protected Ended awaitEnd(String id) {
    Map<String, String> ended = SlurmFilterIT.waitEnded(slurm, id, WAIT);
    String[] code = ended.get("ExitCode").split(":");
    return new Ended(Integer.parseInt(code[0]), Integer.parseInt(code[1]));
  }

  @Override
  protected boolean started(String id) {
    return !"PENDING".equals(SlurmFilterIT.fields(slurm, id).get("JobState"));
  }

  @Override
  protected void adminHold(String id) {
    SlurmHandlerIT.run(slurm, "scontrol", "hold", id);
  }

  @Override
  protected void emptyQueue() {
    SlurmHandlerIT.emptyQueue(slurm);
  }
}
