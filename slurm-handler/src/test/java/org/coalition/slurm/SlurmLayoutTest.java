package org.coalition.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.coalition.job.JobLayout;
import org.junit.jupiter.api.Test;

/** A job's nodes, tasks and GRES as slurmrestd spells them, read into what a pilot asks for; what cannot travel, and why. */
class SlurmLayoutTest {
  @Test
  void nodesTasksAndGresPerNodeTravelInEitherSpelling() {
    assertEquals(new SlurmLayout(JobLayout.ONE, ""), SlurmLayout.of(1, 1, 4, null, "", null, null));
    assertEquals(new SlurmLayout(JobLayout.ONE, ""), SlurmLayout.of(0, 0, 4, "cpu:4", "", "cpu=2", null), "--cpus-per-task is a TRES per task");
    assertEquals(new SlurmLayout(new JobLayout(2, 2, Map.of()), ""), SlurmLayout.of(2, 2, 2, "", "", "", ""), "-N2 --ntasks-per-node=1");
    assertEquals(new SlurmLayout(new JobLayout(2, 2, Map.of()), ""), SlurmLayout.of(2, 0, 4, "", "", "", ""), "one task per node, unsaid");
    assertEquals(new SlurmLayout(new JobLayout(1, 2, Map.of("gpu", 1)), ""), SlurmLayout.of(1, 2, 2, "gres:gpu:1", "", "", ""), "22.05");
    assertEquals(new SlurmLayout(new JobLayout(1, 2, Map.of("gpu", 1)), ""), SlurmLayout.of(1, 2, 2, "gres/gpu:1", "", "", ""), "24.11");
    assertEquals(new SlurmLayout(JobLayout.oneNode(Map.of("gpu", 2)), ""), SlurmLayout.of(1, 1, 1, null, "gres:gpu:2", null, null),
        "--gpus=2 on one node is two GPUs on its node");
    assertEquals(new SlurmLayout(new JobLayout(2, 4, Map.of("gpu:a100", 2, "mps", 1)), ""),
        SlurmLayout.of(2, 4, 8, "gres/gpu:a100:2,gres/mps", null, null, null), "a typed GPU; a count of one unsaid");
  }

  @Test
  void whatARunElsewhereCannotAskForKeepsTheJobHomeWithTheReason() {
    assertEquals(new SlurmLayout(JobLayout.ONE, "it asks for gpu:2 for the whole job over 2 nodes; ask for it per node (--gres) to run elsewhere"),
        SlurmLayout.of(2, 2, 2, null, "gres:gpu:2", null, null));
    assertEquals(new SlurmLayout(JobLayout.ONE, "it asks for gpu:1 per task; ask for it per node (--gres) to run elsewhere"),
        SlurmLayout.of(1, 1, 1, null, null, "cpu:2,gres/gpu:1", null));
    assertEquals(new SlurmLayout(JobLayout.ONE, "it asks for gpu:1 per task; ask for it per node (--gres) to run elsewhere"),
        SlurmLayout.of(1, 1, 1, null, null, "gres/gpu=1", null), "--gpus-per-task=1, as 24.11 spells it");
    assertEquals(new SlurmLayout(JobLayout.ONE, "it asks for gpu:1 per socket; ask for it per node (--gres) to run elsewhere"),
        SlurmLayout.of(1, 1, 1, null, null, null, "gres/gpu:1"));
    assertEquals(new SlurmLayout(JobLayout.ONE, "it asks for license/x:1, which runs elsewhere do not carry"),
        SlurmLayout.of(1, 1, 1, "license/x:1", null, null, null));
    assertEquals(new SlurmLayout(JobLayout.ONE, "its 3 tasks do not share its 4 CPUs evenly, which a pilot elsewhere cannot ask for"),
        SlurmLayout.of(1, 3, 4, null, null, null, null));
    assertFalse(SlurmLayout.of(100_000, 100_000, 100_000, null, null, null, null).staysHome().isEmpty(), "more nodes than any cluster has");
    assertFalse(SlurmLayout.of(1, 1, 1, "gres/gpu:a:b:c:1", null, null, null).staysHome().isEmpty());
  }

  @Test
  void aNodesGresAreCountedByNameAndByType() {
    assertEquals(Map.of(), SlurmLayout.nodeGres("(null)"));
    assertEquals(Map.of(), SlurmLayout.nodeGres(null));
    assertEquals(Map.of("gpu", 1), SlurmLayout.nodeGres("gpu:1"));
    assertEquals(Map.of("gpu", 3, "gpu:a100", 2, "gpu:v100", 1, "mps", 100),
        SlurmLayout.nodeGres("gpu:a100:2(S:0-1),gpu:v100:1(S:0),mps:100"));
  }

  @Test
  void aPilotFitsWhereEnoughUsableNodesHaveItsShareOfCoresMemoryAndGres() {
    List<SlurmNode> nodes = List.of(new SlurmNode("g1", Set.of("IDLE"), 4, 0, 8000, Map.of("gpu", 2, "gpu:a100", 2), Map.of()),
        new SlurmNode("g2", Set.of("MIXED"), 4, 2, 8000, Map.of("gpu", 1), Map.of("gpu", 1)),
        new SlurmNode("c1", Set.of("IDLE"), 8, 0, 16000, Map.of(), Map.of()),
        new SlurmNode("g3", Set.of("IDLE", "DRAIN"), 64, 0, 64000, Map.of("gpu", 8), Map.of()));
    assertTrue(SlurmLayout.canHold(nodes, 8, 16000, JobLayout.ONE));
    assertTrue(SlurmLayout.canHold(nodes, 4, 0, JobLayout.oneNode(Map.of("gpu", 2))), "g1, busy or not");
    assertTrue(SlurmLayout.canHold(nodes, 4, 0, JobLayout.oneNode(Map.of("gpu:a100", 1))));
    assertFalse(SlurmLayout.canHold(nodes, 4, 0, JobLayout.oneNode(Map.of("gpu", 3))), "only drained g3 has 3");
    assertFalse(SlurmLayout.canHold(nodes, 8, 0, JobLayout.oneNode(Map.of("gpu", 1))), "no GPU node has 8 cores");
    assertTrue(SlurmLayout.canHold(nodes, 8, 8000, new JobLayout(2, 2, Map.of("gpu", 1))), "g1 and g2, 4 cores each");
    assertFalse(SlurmLayout.canHold(nodes, 8, 8000, new JobLayout(2, 2, Map.of("gpu", 2))), "one node has 2 GPUs");
    assertTrue(SlurmLayout.canHold(nodes, 6, 0, new JobLayout(3, 3, Map.of())), "three usable nodes of 2 cores");
    assertFalse(SlurmLayout.canHold(nodes, 4, 0, new JobLayout(4, 4, Map.of())), "the fourth is drained");
  }

  /** A node in an advance reservation (a contract's slot, sold to a buyer) holds the jobs the reservation admits, but has no room now for others. */
  @Test
  void aReservedNodeCanHoldAPilotForItsReservationButHasNoRoomForOthers() {
    List<SlurmNode> reserved = List.of(new SlurmNode("localhost", Set.of("IDLE", "RESERVED"), 8, 0, 16000, Map.of(), Map.of()));
    assertTrue(SlurmLayout.canHold(reserved, 4, 200, JobLayout.ONE), "the buyer's pilot goes into the reservation (seen on the testbed)");
    assertFalse(SlurmLayout.hasRoom(reserved, 4, 200, JobLayout.ONE), "no room for a local job while it is reserved");
    List<SlurmNode> down = List.of(new SlurmNode("localhost", Set.of("DOWN", "RESERVED"), 8, 0, 16000, Map.of(), Map.of()));
    assertFalse(SlurmLayout.canHold(down, 4, 200, JobLayout.ONE), "a reserved node that is down holds nothing");
  }

  @Test
  void aJobOfGresHasRoomOnlyWhereItsGresAreFreeNowNotWhereCoresAreFree() {
    List<SlurmNode> nodes = List.of(new SlurmNode("g1", Set.of("MIXED"), 8, 1, 8000, Map.of("gpu", 1), SlurmLayout.nodeGres("gpu:1(IDX:0)")),
        new SlurmNode("g2", Set.of("IDLE"), 4, 0, 8000, Map.of("gpu", 2), SlurmLayout.nodeGres("gpu:0(IDX:N/A)")),
        new SlurmNode("c1", Set.of("IDLE"), 8, 0, 8000, Map.of(), Map.of()));
    assertTrue(SlurmLayout.hasRoom(nodes, 4, 0, JobLayout.oneNode(Map.of("gpu", 2))), "g2's two GPUs are free");
    assertFalse(SlurmLayout.hasRoom(nodes, 8, 0, JobLayout.oneNode(Map.of("gpu", 1))), "g1 has 7 cores free, its GPU is taken; g2 has 4 cores");
    assertFalse(SlurmLayout.hasRoom(nodes, 2, 0, new JobLayout(2, 2, Map.of("gpu", 1))), "one node has a GPU free");
    assertTrue(SlurmLayout.hasRoom(nodes, 8, 0, new JobLayout(2, 2, Map.of())), "g1 and c1 have 4 cores free each");
  }

  @Test
  void aJobHasRoomOnlyWhereItsMemoryIsFreeNotWhereCoresAreFree() {
    // north in the benchmark: its own job holds 1 core and 7,500 of 8,000 MiB
    List<SlurmNode> nodes = List.of(new SlurmNode("n1", Set.of("MIXED"), 8, 1, 8000, Map.of(), Map.of(), 7500),
        new SlurmNode("n2", Set.of("IDLE", "DRAIN"), 8, 0, 8000, Map.of(), Map.of(), 0));
    assertFalse(SlurmLayout.hasRoom(nodes, 2, 600, JobLayout.ONE), "7 cores free, but 500 MiB: n2 is drained");
    assertTrue(SlurmLayout.hasRoom(nodes, 2, 400, JobLayout.ONE), "400 MiB fit in 500");
    assertTrue(SlurmLayout.hasRoom(nodes, 2, 0, JobLayout.ONE), "a job that names no memory");
    assertFalse(SlurmLayout.hasRoom(nodes, 8, 0, JobLayout.ONE), "8 cores on one node: n1 has 7 free");
    assertTrue(SlurmLayout.hasRoom(List.of(new SlurmNode("n3", Set.of("IDLE"), 8, 0, 0)), 2, 600, JobLayout.ONE),
        "a node whose memory Slurm does not say has room");
  }
}
