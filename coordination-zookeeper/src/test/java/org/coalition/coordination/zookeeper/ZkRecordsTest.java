package org.coalition.coordination.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.JobOwner;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.LedgerRow;
import org.coalition.coordination.RunResult;
import org.coalition.coordination.UtilitySums;
import org.coalition.coordination.zookeeper.ZkRecords.ResultRecord;
import org.coalition.job.JobLayout;
import org.junit.jupiter.api.Test;

/** Results and jobs as the records in ZooKeeper hold them, across the versions that wrote them. */
class ZkRecordsTest {
  private static final String PATH = "/coalition/f/jobs/north/7/claim/result";

  private static ResultRecord read(String json) {
    return ZkRecords.read(PATH, json.getBytes(StandardCharsets.UTF_8), ResultRecord.class);
  }

  @Test
  void aResultWrittenBeforeRunsCarriedASignalReadsAsARunThatExited() {
    ResultRecord r = read("{\"executor\":\"south\",\"token\":77,\"run\":{\"start\":20,\"end\":80,\"exitCode\":3,\"output\":\"\"}}");
    assertEquals(RunResult.builder(20, 80).exitCode(3).build(), r.run());
  }

  @Test
  void aResultWrittenBeforeTimeoutsWereToldReadsAsARunThatEndedByItself() {
    ResultRecord r = read("{\"executor\":\"south\",\"token\":77,\"run\":{\"start\":20,\"end\":80,\"exitCode\":0,\"signal\":15,\"output\":\"\"}}");
    assertEquals(RunResult.builder(20, 80).signal(15).build(), r.run());
  }

  @Test
  void aResultWithASignalOrATimeoutReadsBackAsWritten() {
    for (RunResult run : new RunResult[] {RunResult.builder(20, 80).signal(15).build(), RunResult.builder(20, 80).signal(15).timedOut(true)
        .build()}) {
      ResultRecord written = new ResultRecord("south", 77, run);
      assertEquals(written, ZkRecords.read(PATH, ZkRecords.write(written), ResultRecord.class));
    }
  }

  @Test
  void aResultWithoutItsExitCodeOrWithABadSignalIsRefused() {
    for (String run : new String[] {"{\"start\":20,\"end\":80,\"output\":\"\"}", "{\"start\":20,\"end\":80,\"exitCode\":0,\"signal\":99,\"output\":\"\"}",
        "{\"start\":20,\"end\":80,\"exitCode\":0,\"signal\":15,\"core\":1,\"output\":\"\"}",
        "{\"start\":20,\"end\":80,\"exitCode\":0,\"timedOut\":\"later\",\"output\":\"\"}"}) {
      CoordinationException e = assertThrows(CoordinationException.class,
          () -> read("{\"executor\":\"south\",\"token\":77,\"run\":" + run + "}"), run);
      assertEquals(CoordinationException.Kind.INVALID, e.kind(), e.getMessage());
    }
  }

  @Test
  void anArrayTasksVariablesTravelAndAJobWithoutThemIsWrittenAsBefore() {
    JobSpec task = JobSpec.builder("276_5", "north").cores(1).walltimeSeconds(60).release(3).payload("#!/bin/sh\n")
        .environment(Map.of("SLURM_ARRAY_JOB_ID", "276", "SLURM_ARRAY_TASK_ID", "5")).build();
    assertEquals(task, ZkRecords.read(PATH, ZkRecords.write(task), JobSpec.class));
    JobSpec plain = JobSpec.builder("277", "north").cores(1).walltimeSeconds(60).release(3).payload("#!/bin/sh\n").build();
    String json = new String(ZkRecords.write(plain), StandardCharsets.UTF_8);
    assertFalse(json.contains("environment"), "a daemon from before arrays, which refuses unknown fields, reads it: " + json);
    assertEquals(Map.of(), ZkRecords.read(PATH, ZkRecords.write(plain), JobSpec.class).environment());
  }

  @Test
  void aPeerCannotSetAnyOtherVariableOrAnythingButANumber() {
    String job = "{\"jobId\":\"9\",\"home\":\"north\",\"cores\":1,\"memoryMb\":0,\"walltimeSeconds\":60,\"release\":0,\"payload\":\"\","
        + "\"environment\":";
    for (String env : new String[] {"{\"LD_PRELOAD\":\"1\"}", "{\"PATH\":\"1\"}", "{\"SLURM_ARRAY_TASK_ID\":\"5; rm -rf ~\"}",
        "{\"SLURM_ARRAY_TASK_ID\":\"$(id)\"}", "{\"SLURM_ARRAY_TASK_ID\":\"\"}", "{\"SLURM_JOB_ID\":\"1\"}",
        "{\"A1\":\"1\",\"SLURM_ARRAY_A\":\"1\",\"SLURM_ARRAY_B\":\"1\",\"SLURM_ARRAY_C\":\"1\",\"SLURM_ARRAY_D\":\"1\","
            + "\"SLURM_ARRAY_E\":\"1\",\"SLURM_ARRAY_F\":\"1\",\"SLURM_ARRAY_G\":\"1\",\"SLURM_ARRAY_H\":\"1\"}"}) {
      CoordinationException e = assertThrows(CoordinationException.class,
          () -> ZkRecords.read(PATH, (job + env + "}").getBytes(StandardCharsets.UTF_8), JobSpec.class), env);
      assertEquals(CoordinationException.Kind.INVALID, e.kind(), e.getMessage());
      assertTrue(e.getMessage().contains("job 9: "), e.getMessage());
    }
  }

  @Test
  void aLayoutTravelsAndAOneNodeJobIsWrittenAsBefore() {
    JobSpec mpi = JobSpec.builder("278", "north").cores(4).walltimeSeconds(60).release(3).payload("#!/bin/sh\n")
        .layout(new JobLayout(2, 2, Map.of("gpu", 1, "gpu:a100", 2))).build();
    assertEquals(mpi, ZkRecords.read(PATH, ZkRecords.write(mpi), JobSpec.class));
    String json = new String(ZkRecords.write(JobSpec.builder("279", "north").cores(4).walltimeSeconds(60).release(3)
        .build()), StandardCharsets.UTF_8);
    assertFalse(json.contains("layout"), "a daemon from before layouts, which refuses unknown fields, reads it: " + json);
    assertEquals(JobLayout.ONE, ZkRecords.read(PATH, json.getBytes(StandardCharsets.UTF_8), JobSpec.class).layout());
  }

  @Test
  void aPeersLayoutIsBounded() {
    String job = "{\"jobId\":\"9\",\"home\":\"north\",\"cores\":4,\"memoryMb\":0,\"walltimeSeconds\":60,\"release\":0,\"payload\":\"\","
        + "\"layout\":";
    for (String layout : new String[] {"{\"nodes\":0,\"tasks\":1,\"gres\":{}}", "{\"nodes\":2,\"tasks\":1,\"gres\":{}}",
        "{\"nodes\":1,\"tasks\":3,\"gres\":{}}", "{\"nodes\":1,\"tasks\":8,\"gres\":{}}",
        "{\"nodes\":100000,\"tasks\":100000,\"gres\":{}}", "{\"nodes\":1,\"tasks\":1,\"gres\":{\"gpu\":0}}",
        "{\"nodes\":1,\"tasks\":1,\"gres\":{\"GPU; rm\":1}}", "{\"nodes\":1,\"tasks\":1,\"gres\":{\"gpu\":-1}}",
        "{\"nodes\":1,\"tasks\":1,\"gres\":{\"a\":1,\"b\":1,\"c\":1,\"d\":1,\"e\":1,\"f\":1,\"g\":1,\"h\":1,\"i\":1}}",
        "{\"nodes\":1,\"tasks\":1,\"gres\":{\"gpu\":1},\"cores\":9}"}) {
      CoordinationException e = assertThrows(CoordinationException.class,
          () -> ZkRecords.read(PATH, (job + layout + "}").getBytes(StandardCharsets.UTF_8), JobSpec.class), layout);
      assertEquals(CoordinationException.Kind.INVALID, e.kind(), e.getMessage());
    }
  }

  @Test
  void anOwnerTravelsOnlyWhenNamedAndAPeersOwnerIsBounded() {
    JobSpec mine = JobSpec.builder("280", "north").cores(1).walltimeSeconds(60).release(3).owner(new JobOwner("alice", "/home/alice/run")).build();
    assertEquals(mine, ZkRecords.read(PATH, ZkRecords.write(mine), JobSpec.class));
    String json = new String(ZkRecords.write(JobSpec.builder("281", "north").cores(1).walltimeSeconds(60).release(3)
        .build()), StandardCharsets.UTF_8);
    assertFalse(json.contains("owner"), "a daemon from before identity domains, which refuses unknown fields, reads it: " + json);
    assertEquals(JobOwner.NONE, ZkRecords.read(PATH, json.getBytes(StandardCharsets.UTF_8), JobSpec.class).owner());
    String job = "{\"jobId\":\"9\",\"home\":\"north\",\"cores\":1,\"memoryMb\":0,\"walltimeSeconds\":60,\"release\":0,\"payload\":\"\","
        + "\"owner\":";
    for (String owner : new String[] {"{\"user\":\"root\",\"workDir\":\"\"}", "{\"user\":\"Alice\",\"workDir\":\"\"}",
        "{\"user\":\"alice; rm\",\"workDir\":\"\"}", "{\"user\":\"" + "a".repeat(33) + "\",\"workDir\":\"\"}",
        "{\"user\":\"\",\"workDir\":\"/home/alice\"}", "{\"user\":\"alice\",\"workDir\":\"home/alice\"}",
        "{\"user\":\"alice\",\"workDir\":\"/home/../etc\"}", "{\"user\":\"alice\",\"workDir\":\"/home//alice\"}",
        "{\"user\":\"alice\",\"workDir\":\"/\"}", "{\"user\":\"alice\",\"workDir\":\"/home/a\\nb\"}",
        "{\"user\":\"alice\",\"workDir\":\"/" + "a".repeat(4096) + "\"}"}) {
      CoordinationException e = assertThrows(CoordinationException.class,
          () -> ZkRecords.read(PATH, (job + owner + "}").getBytes(StandardCharsets.UTF_8), JobSpec.class), owner);
      assertEquals(CoordinationException.Kind.INVALID, e.kind(), e.getMessage());
    }
  }

  @Test
  void aMemoryKillTravelsAndAResultWithoutOneIsWrittenAsBefore() {
    RunResult killed = RunResult.builder(1, 2).signal(9).output("https://exec:8443/v1/outputs/x").outOfMemory(true).build();
    assertEquals(killed, ZkRecords.read(PATH, ZkRecords.write(killed), RunResult.class));
    String json = new String(ZkRecords.write(RunResult.builder(1, 2).signal(9).build()), StandardCharsets.UTF_8);
    assertFalse(json.contains("outOfMemory"), "a daemon from before memory kills were told, which refuses unknown fields, reads it: " + json);
    assertFalse(ZkRecords.read(PATH, json.getBytes(StandardCharsets.UTF_8), RunResult.class).outOfMemory());
  }

  @Test
  void anOutputsSizeTravelsAndAResultWithoutOneIsWrittenAsBefore() {
    RunResult sized = RunResult.builder(1, 2).output("https://exec:8443/v1/outputs/x").outputSha256("a".repeat(64)).outputBytes(4_096).build();
    assertEquals(sized, ZkRecords.read(PATH, ZkRecords.write(sized), RunResult.class));
    String json = new String(ZkRecords.write(RunResult.builder(1, 2).output("https://exec:8443/v1/outputs/x").outputSha256("a".repeat(64)).build()),
        StandardCharsets.UTF_8);
    assertFalse(json.contains("outputBytes"), "a daemon from before sizes, which refuses unknown fields, reads it: " + json);
    assertEquals(0, ZkRecords.read(PATH, json.getBytes(StandardCharsets.UTF_8), RunResult.class).outputBytes(), "no size declared");
    CoordinationException negative = assertThrows(CoordinationException.class, () -> ZkRecords.read(PATH,
        json.replace("}", ",\"outputBytes\":-1}").getBytes(StandardCharsets.UTF_8), RunResult.class));
    assertEquals(CoordinationException.Kind.INVALID, negative.kind(), negative.getMessage());
  }

  @Test
  void aLedgerRowsPaymentsTravelAndARowWithoutThemIsWrittenAsBefore() {
    UtilitySums hour = UtilitySums.of(0, RunResult.builder(0, 3600).build(), 1);
    LedgerRow runs = LedgerRow.empty("north").accepted("south", hour);
    String json = new String(ZkRecords.write(runs), StandardCharsets.UTF_8);
    assertFalse(json.contains("paid"), "a daemon from before contracts, which refuses unknown fields, reads it: " + json);
    assertEquals(runs, ZkRecords.read(PATH, json.getBytes(StandardCharsets.UTF_8), LedgerRow.class), "no payments");
    LedgerRow paid = runs.paid("south", UtilitySums.paid(2500, 1_796_428_800));
    assertEquals(paid, ZkRecords.read(PATH, ZkRecords.write(paid), LedgerRow.class));
    assertEquals(1, paid.paid().get("south").jobs(), "one payment");
    assertEquals(1, paid.total().jobs(), "a payment is no run");
  }
}
