package org.coalition.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.DockerClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.coalition.testbed.Command;
import org.coalition.testbed.Eventually;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code docker/up} as a site admin runs it, with an HTCondor site and a Grid Engine site of several
 * containers beside a Slurm site: {@code north:22.05 central:htcondor east:gridengine}, two nodes
 * each. North is kept full, so that each of the other two is the other's only executor: an
 * HTCondor user's job, submitted with {@code condor_submit} while its pool is full, runs on a node
 * of the Grid Engine cell and ends once in {@code condor_history} with the run's exit code, its
 * output and its transferred file in the submit folder; a Grid Engine user's job, submitted with
 * {@code qsub} while its cell is full, runs on an execute node of the HTCondor pool (which shares no
 * file system with the access point) and ends once in {@code qacct -j} with the run's exit status
 * and its output in the working folder. docker/up's containers are removed after (by its label, as
 * docker/down does).
 */
class DockerUpIT {
  private static final Path DOCKER = Path.of("/usr/bin/docker");
  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
  private static final String UP_LABEL = "org.coalition.docker=up";
  /** Ports of docker/up's own (ZooKeeper, slurmrestd, daemons) away from its default 30000-30130. */
  private static final String PORT_BASE = "31000";
  private static final Duration A_RUN = Duration.ofMinutes(4);

  @BeforeAll
  static void up() throws Exception {
    long t0 = System.nanoTime();
    Path log = Files.createDirectories(Path.of("target", "containers")).resolve("docker-up.log");
    Command.Result r = Command.of(REPO.resolve("docker/up"), "north:22.05", "central:htcondor", "east:gridengine")
        .env("COALITION_DOCKER_PORT_BASE", PORT_BASE).timeout(Duration.ofMinutes(15)).run();
    Files.writeString(log, r.stdout() + r.stderr());
    assertEquals(0, r.exitCode(), () -> "docker/up exited " + r.exitCode() + " (whole output in " + log + "): " + tail(r.stdout() + r.stderr()));
    System.out.printf("[tier] docker/up: north (Slurm 22.05), central (HTCondor 23), east (Grid Engine 8.1), 2 nodes each, up in %.0f s%n",
        (System.nanoTime() - t0) / 1e9);
    // north full for the whole class: a job of both its nodes, each whole
    sh("coalition-north-ctl", "alice", "sbatch -p batch -N 2 --exclusive -t 60 -o /dev/null --wrap 'sleep 3600'");
    Eventually.waitFor("north's cluster is full", Duration.ofMinutes(2),
        () -> !sh("coalition-north-ctl", "alice", "squeue -h -t RUNNING -o %i").isBlank());
  }

  @AfterAll
  static void down() {
    DockerClient docker = Engine.client();
    docker.listContainersCmd().withShowAll(true).withLabelFilter(List.of(UP_LABEL)).exec()
        .forEach(c -> docker.removeContainerCmd(c.getId()).withForce(true).withRemoveVolumes(true).exec());
    docker.listNetworksCmd().withFilter("label", List.of(UP_LABEL)).exec().forEach(n -> docker.removeNetworkCmd(n.getId()).exec());
    docker.listVolumesCmd().withFilter("label", List.of(UP_LABEL)).exec().getVolumes()
        .forEach(v -> docker.removeVolumeCmd(v.getName()).exec());
  }

  @Test
  void anHtcondorUsersJobRunsInTheGridEngineCellAndEndsInCondorHistoryWithItsExitCodeOutputAndFile() {
    String ap = "coalition-central-ap";
    // the pool full: two jobs of four cores on its two nodes
    String occupier = firstWord(sh(ap, "alice", "printf 'executable = /bin/sleep\\narguments = 1800\\nrequest_cpus = 4\\nrequest_memory = 100\\n"
        + "queue 2\\n' > occupy.sub && condor_submit -terse occupy.sub"));
    Eventually.waitFor("central's pool is full", Duration.ofMinutes(2),
        () -> sh(ap, "alice", "condor_q -run -af ClusterId").lines().count() == 2);
    sh(ap, "alice", "printf '#!/bin/sh\\necho ran on $(hostname) as $(id -un)\\necho made > made.txt\\nsleep 3\\nexit 3\\n' > fed.sh && chmod +x fed.sh"
        + " && printf 'executable = fed.sh\\noutput = fed.out\\nerror = fed.err\\nlog = fed.log\\nrequest_cpus = 2\\nrequest_memory = 100\\n"
        + "transfer_output_files = made.txt\\n+CoalitionFederate = true\\nqueue\\n' > fed.sub");
    long submitted = System.nanoTime();
    String job = firstWord(sh(ap, "alice", "condor_submit -terse fed.sub"));
    // once the run is back, its replay waits for a core at home: the pool is made free
    Eventually.waitFor("central's job " + job + " ran elsewhere and was made to replay", A_RUN,
        () -> sh(ap, "root", "condor_q " + job + " -af CoalitionOriginalCmd").trim().startsWith("/"));
    sh(ap, "root", "condor_rm " + occupier);
    Eventually.waitFor("central's job " + job + " in condor_history", Duration.ofMinutes(2),
        () -> !sh(ap, "root", "condor_history " + job + " -af ExitCode").isBlank());
    String history = sh(ap, "root", "condor_history " + job + " -af ExitCode CoalitionWhere -limit 1").trim();
    assertTrue(history.startsWith("3 "), "the remote run's exit code in condor_history: " + history);
    assertTrue(history.matches("3 ran at east .*"), "condor_history tells where it ran (east's cell, north being full): " + history);
    assertEquals(1, sh(ap, "root", "condor_history -constraint 'ClusterId == " + firstWord(job) + "' -af ClusterId").lines().count(),
        "one record of the job in the pool's history");
    String out = sh(ap, "alice", "cat fed.out").trim();
    assertTrue(out.matches("ran on east-n[12] as fed-central"), "its output, from an execution host of east and its account: " + out);
    assertEquals("made", sh(ap, "alice", "cat made.txt").trim(), "the file it made, transferred back as HTCondor's file transfer would");
    System.out.printf("[tier] an HTCondor user's job: %s, %.0f s from condor_submit to condor_history%n", history,
        (System.nanoTime() - submitted) / 1e9);
  }

  @Test
  void aGridEngineUsersJobRunsInTheHtcondorPoolAndEndsInQacctWithItsExitStatusAndOutput() {
    String master = "coalition-east-master";
    // the cell full: two jobs of four slots on its two execution hosts
    String occupiers = sh(master, "alice", "for i in 1 2; do qsub -terse -b y -pe smp 4 -o /dev/null -e /dev/null /bin/sleep 1800; done")
        .trim().replace('\n', ' ');
    Eventually.waitFor("east's cell is full", Duration.ofMinutes(2),
        () -> sh(master, "alice", "qstat -s r").lines().filter(l -> l.contains("sleep")).count() == 2);
    sh(master, "alice", "printf '#!/bin/sh\\necho ran on $(hostname) as $(id -un)\\nsleep 3\\nexit 4\\n' > fed.sh");
    long submitted = System.nanoTime();
    String job = sh(master, "alice", "qsub -terse -cwd -ac COALITION_FEDERATE=1 -o fed.out -e fed.err fed.sh").trim();
    // once the run is back its hold is released and its replay waits for a slot: the cell is made free
    Eventually.waitFor("east's job " + job + " ran elsewhere and waits to replay", A_RUN,
        () -> sh(master, "root", "qstat -j " + job + " | grep context || true").contains("ran at")
            && !sh(master, "root", "qstat -s h -u '*'").contains(" " + job + " "));
    String where = sh(master, "root", "qstat -j " + job + " | grep context").trim();
    sh(master, "root", "qdel " + occupiers);
    Eventually.waitFor("east's job " + job + " in qacct", Duration.ofMinutes(2),
        () -> sh(master, "root", "qacct -j " + job + " 2>/dev/null || true").contains("exit_status"));
    String qacct = sh(master, "root", "qacct -j " + job);
    assertTrue(qacct.matches("(?s).*\\nexit_status +4\\s.*"), "the remote run's exit status in qacct -j: " + qacct);
    assertEquals(1, qacct.lines().filter(l -> l.startsWith("exit_status")).count(), "one accounting record of the job: " + qacct);
    assertTrue(where.matches(".*ran at central .*"), "qstat -j told where it ran (central's pool, north being full): " + where);
    String out = sh(master, "alice", "cat fed.out").trim();
    assertTrue(out.matches("ran on central-n[12] as fed-east"), "its output, from an execute node of central and its account: " + out);
    System.out.printf("[tier] a Grid Engine user's job %s: exit_status 4, %s, %.0f s from qsub to qacct%n", job, where,
        (System.nanoTime() - submitted) / 1e9);
  }

  /** Runs {@code script} by bash in {@code container} as {@code user}, in the user's home; fails with its output unless it exits 0. */
  private static String sh(String container, String user, String script) {
    String home = user.equals("root") ? "/root" : "/home/" + user;
    return Command.of(DOCKER, "exec", "-u", user, "-w", home, container, "bash", "-c", script).timeout(Duration.ofMinutes(1)).run()
        .requireSuccess().stdout();
  }

  private static String firstWord(String s) {
    return s.trim().split("[\\s.]+")[0];
  }

  private static String tail(String s) {
    List<String> lines = s.lines().toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
  }
}
