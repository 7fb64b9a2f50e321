package org.coalition.condor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HomeJob;
import org.coalition.handler.RemoteRun;
import org.coalition.handler.files.Results;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How an opted-in HTCondor job's ad reads as a home job, and what keeps it home. */
class CondorHomeTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode ad(String json) throws Exception {
    return JSON.readTree(json);
  }

  @Test
  void anIdleJobIsReadyWithItsShape() throws Exception {
    HomeJob j = CondorHome.homeJob(ad("""
        {"ClusterId": 12, "ProcId": 3, "Owner": "alice", "JobStatus": 1, "RequestCpus": 4, "RequestMemory": 2048,
         "AllowedJobDuration": 600, "Iwd": "/home/alice/run", "Cmd": "/home/alice/run/job.sh"}"""));
    assertEquals(HomeJob.builder("12.3", "alice").cpus(4).memoryMb(2048).timeLimitSeconds(600).workDir("/home/alice/run").build(), j);
  }

  @Test
  void aJobHeldByAHoldOfTheKindParksAreIsHeldAndNotReadyAndAReplayingOneIsNotReady() throws Exception {
    HomeJob held = CondorHome.homeJob(ad("""
        {"ClusterId": 1, "ProcId": 0, "Owner": "alice", "JobStatus": 5, "HoldReasonCode": 1, "HoldReasonSubCode": 7077}"""));
    assertTrue(held.held());
    assertFalse(held.ready());
    HomeJob heldForAnError = CondorHome.homeJob(ad("""
        {"ClusterId": 1, "ProcId": 0, "Owner": "alice", "JobStatus": 5, "HoldReasonCode": 12}"""));
    assertFalse(heldForAnError.held(), "a hold for an error is no hold of the kind the daemon makes");
    assertFalse(heldForAnError.ready());
    HomeJob replaying = CondorHome.homeJob(ad("""
        {"ClusterId": 1, "ProcId": 0, "Owner": "alice", "JobStatus": 1, "CoalitionOriginalCmd": "/home/alice/job.sh"}"""));
    assertFalse(replaying.ready(), "released to replay a run made elsewhere: it waits for a slot, not for room");
  }

  @Test
  void anExpressionOrAnAbsurdNumberIsNotTakenAsASize() throws Exception {
    HomeJob j = CondorHome.homeJob(ad("""
        {"ClusterId": 1, "ProcId": 0, "Owner": "alice", "JobStatus": 1, "RequestCpus": "/Expr(ifThenElse(true, 2, 1))/",
         "RequestMemory": -5, "AllowedJobDuration": 99999999999}"""));
    assertEquals(1, j.cpus());
    assertEquals(0, j.memoryMb());
    assertEquals(-1, j.timeLimitSeconds());
  }

  @Test
  void inputFilesGpusAndArgumentsKeepAJobHomeWithTheReasonSaid() throws Exception {
    assertTrue(CondorHome.staysHome(ad("{\"TransferInput\": \"data.csv\"}")).contains("transfer_input_files"));
    assertTrue(CondorHome.staysHome(ad("{\"RequestGPUs\": 1}")).contains("GPUs"));
    assertTrue(CondorHome.staysHome(ad("{\"Arguments\": \"-n 3\"}")).contains("arguments"));
    assertTrue(CondorHome.staysHome(ad("{\"Args\": \"-n 3\"}")).contains("arguments"));
    assertEquals("", CondorHome.staysHome(ad("{\"Arguments\": \"\", \"TransferInput\": \"\", \"RequestGPUs\": 0}")));
  }

  /**
   * A result stays while its job is in the queue in any state (its replay reads it while it runs)
   * and goes once the job left: against a hand-written {@code condor_q} that prints the queue.
   */
  @Test
  void aResultStaysWhileItsReplayRunsAndGoesWhenTheJobLeftTheQueue(@TempDir Path tmp) throws Exception {
    Path bin = Files.createDirectory(tmp.resolve("bin"));
    Path queue = tmp.resolve("queue.json");
    Files.writeString(bin.resolve("condor_q"), "#!/bin/sh\ncat " + queue + "\n");
    Files.setPosixFilePermissions(bin.resolve("condor_q"), PosixFilePermissions.fromString("rwxr-xr-x"));
    Path root = Files.createDirectory(tmp.resolve("results"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx--x--x")));
    CondorHome home = new CondorHome(new CondorTools(Optional.of(bin), List.of(), Map.of(), Duration.ofSeconds(10)), new Results(root),
        Path.of("/usr/lib/coalition/coalition-replay"));
    String me = System.getProperty("user.name");
    new Results(root).write("12.0", me, RemoteRun.exited("out", "", 0));
    Files.writeString(queue, "[{\"ClusterId\": 12, \"ProcId\": 0, \"Owner\": \"" + me + "\", \"JobStatus\": 2, \"CoalitionFederate\": true,"
        + " \"CoalitionOriginalCmd\": \"/home/job.sh\"}]");
    home.observe();
    home.sweep();
    assertTrue(Files.isDirectory(root.resolve("12.0")), "the replay runs: its result stays");
    assertTrue(home.federable().isEmpty(), "a running job is not listed as federable");
    Files.writeString(queue, "");
    home.observe();
    home.sweep();
    assertFalse(Files.exists(root.resolve("12.0")), "the job left the queue: its result goes");
  }

  @Test
  void classAdStringsAreQuoted() {
    assertEquals("\"running at \\\"west\\\" \\\\ since 12:00\"", CondorHome.quoted("running at \"west\" \\ since 12:00"));
  }

  @Test
  void aReplayProgramOrResultsFolderThatCannotBeQuotedSafelyIsRefusedAtOnce() {
    CondorTools tools = new CondorTools(Optional.empty(), List.of(), Map.of(), Duration.ofSeconds(5));
    assertThrows(HandlerException.class, () -> new CondorHome(tools, new Results(Path.of("/var/lib/coalition/results")), Path.of("replay")));
    assertThrows(HandlerException.class, () -> new CondorHome(tools, new Results(Path.of("/var/lib/with space")), Path.of("/usr/lib/x")));
    new CondorHome(tools, new Results(Path.of("/var/lib/coalition/results")), Path.of("/usr/lib/coalition/coalition-replay"));
  }
}
