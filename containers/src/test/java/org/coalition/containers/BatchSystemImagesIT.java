package org.coalition.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Volume;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.lifecycle.Startables;

/**
 * The HTCondor and Grid Engine images of docker/ run users' jobs: an HTCondor pool of a central
 * manager and two execute nodes on a network of their own (IDTOKENS from a pool key made at
 * start), and a Grid Engine cell. Each job runs as the user who submitted it.
 */
class BatchSystemImagesIT {
  private final Logs logs = new Logs(Path.of("target", "containers"));

  @Test
  void anHtcondorPoolOfThreeContainersRunsAUsersJobOnAnExecuteNode() {
    String keys = Engine.volume("coalition-tier-condor-keys-" + Long.toHexString(System.nanoTime()));
    List<GenericContainer<?>> pool = new ArrayList<>();
    try (Network network = Network.newNetwork()) {
      for (String host : List.of("cm", "ex1", "ex2")) {
        pool.add(Engine.container("coalition/htcondor:23").withNetwork(network).withNetworkAliases(host)
            .withCommand(host.equals("cm") ? "central-manager" : "execute").withCreateContainerCmdModifier(logs.hostname(host))
            .withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withBinds(new Bind(keys, new Volume("/etc/condor/keys"))))
            .withLogConsumer(logs.to("condor-" + host)).waitingFor(Engine.untilHealthy(Duration.ofMinutes(3))));
      }
      Startables.deepStart(pool).join();
      GenericContainer<?> cm = pool.get(0);
      String machines = Engine.exec(cm, "alice", "condor_status", "-af", "Machine");
      assertTrue(machines.contains("ex1") && machines.contains("ex2"), "both execute nodes joined the pool: " + machines);
      // A script, not arguments: the submit language would read $(hostname) as one of its own macros.
      Engine.exec(cm, "alice", "sh", "-c", "cd && printf '#!/bin/sh\\necho \"$(hostname) $(id -un)\"\\nexit 3\\n' > job.sh && chmod +x job.sh"
          + " && printf 'executable = job.sh\\noutput = out\\nerror = err\\nlog = log\\nqueue\\n' > job.sub && condor_submit job.sub");
      Engine.exec(cm, "alice", "sh", "-c", "cd && condor_wait -wait 120 log");
      String out = Engine.exec(cm, "alice", "sh", "-c", "cd && cat out").trim();
      assertTrue(out.matches("ex[12] alice"), "ran on an execute node as alice: " + out);
      String exit = Engine.exec(cm, "alice", "condor_history", "-af", "ExitCode", "-limit", "1").trim();
      assertEquals("3", exit, "the job's exit code, in the pool's history");
      System.out.println("[tier] HTCondor pool of 3 containers: alice's job ran at " + out.split(" ")[0] + ", exit code " + exit);
    } finally {
      pool.forEach(GenericContainer::stop);
      Engine.removeVolume(keys);
    }
  }

  @Test
  void aGridEngineCellRunsAUsersJobAndKeepsItsExitCode() {
    try (GenericContainer<?> sge = Engine.container("coalition/gridengine:8.1").withCreateContainerCmdModifier(logs.hostname("sge"))
        .withLogConsumer(logs.to("sge")).waitingFor(Engine.untilHealthy(Duration.ofMinutes(3)))) {
      sge.start();
      Engine.exec(sge, "alice", "sh", "-c", "cd && printf '#!/bin/sh\\nid -un\\nexit 3\\n' > job.sh");
      String sync = Engine.exec(sge, "alice", "sh", "-c", "cd && qsub -sync y -o out -j y job.sh 2>&1; true");
      assertTrue(sync.contains("exited with exit code 3"), "qsub -sync y reports the job's exit code: " + sync);
      assertEquals("alice", Engine.exec(sge, "alice", "sh", "-c", "cd && cat out").trim(), "ran as alice");
      System.out.println("[tier] Grid Engine cell: alice's job ran as alice, exit code 3 reported");
    }
  }
}
