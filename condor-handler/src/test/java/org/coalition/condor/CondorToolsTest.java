package org.coalition.condor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.coalition.handler.HandlerException;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotState;
import org.coalition.handler.Tool;
import org.junit.jupiter.api.Test;

/** Reading HTCondor's JSON and writing its submit descriptions, without a pool. */
class CondorToolsTest {
  private static final PilotHandle PILOT = new PilotHandle(CondorHandler.KIND, "12.0");

  @Test
  void anEmptyOutputIsNoAdsAndWhatIsNotAnArrayOfAdsIsAProtocolError() {
    assertEquals(List.of(), CondorTools.parse("\n", "condor_q -json"));
    assertEquals(2, CondorTools.parse("[{\"ClusterId\": 1}, {\"ClusterId\": 2}]", "condor_q -json").size());
    HandlerException garbled = assertThrows(HandlerException.class, () -> CondorTools.parse("[{\"ClusterId\": ", "condor_q -json"));
    assertEquals(HandlerException.Category.PROTOCOL, garbled.category());
    assertTrue(garbled.getMessage().startsWith("condor_q -json printed something that is not JSON"), garbled.getMessage());
    HandlerException object = assertThrows(HandlerException.class, () -> CondorTools.parse("{\"a\": 1}", "condor_status -json"));
    assertTrue(object.getMessage().contains("not an array of ads"), object.getMessage());
  }

  @Test
  void argumentsAndEnvironmentUseTheNewQuotingAndNoMacroExpands() {
    String d = new SubmitDescription().arguments(List.of("-c", "echo \"$HOME\" it's $$ $(date)", "")).environment(Map.of("A", "x y")).toString();
    // what condor_submit -dry-run reads back as the arguments -c, echo "$HOME" it's $$ $(date), and an empty one (checked on 23.9)
    assertEquals("arguments = \"-c 'echo \"\"$HOME\"\" it''s $$ $(DOLLAR)(date)' ''\"\nenvironment = \"A='x y'\"\n", d);
    assertThrows(IllegalArgumentException.class, () -> new SubmitDescription().arguments(List.of("two\nlines")));
    assertThrows(IllegalArgumentException.class, () -> new SubmitDescription().arguments(List.of("$$(Attribute)")), "a match-time expression");
    // checked with condor_submit -dry-run: $ENV(HOME) would be the submitting process's HOME, a trailing backslash joins the next line
    assertEquals("arguments = \"'echo $(DOLLAR)ENV(SECRET) $(DOLLAR)RANDOM_INTEGER(1,9)'\"\n",
        new SubmitDescription().arguments(List.of("echo $ENV(SECRET) $RANDOM_INTEGER(1,9)")).toString());
    assertThrows(IllegalArgumentException.class, () -> new SubmitDescription().set("error", "/tmp/e\\"), "a trailing backslash");
    assertThrows(IllegalArgumentException.class, () -> new SubmitDescription().environment(Map.of("A B", "x")), "not a variable's name");
  }

  @Test
  void jobStatesMapToPilotStates() throws Exception {
    ObjectMapper json = new ObjectMapper();
    assertEquals(PilotState.PENDING, CondorHandler.status(PILOT, json.readTree("{\"ClusterId\":12,\"ProcId\":0,\"JobStatus\":1}")).state());
    assertEquals(PilotState.HELD, CondorHandler.status(PILOT, json.readTree("{\"ClusterId\":12,\"ProcId\":0,\"JobStatus\":5}")).state());
    assertEquals(PilotState.RUNNING, CondorHandler.status(PILOT, json.readTree("{\"ClusterId\":12,\"ProcId\":0,\"JobStatus\":7}")).state());
    assertEquals(PilotState.CANCELLED, CondorHandler.status(PILOT, json.readTree("{\"ClusterId\":12,\"ProcId\":0,\"JobStatus\":3}")).state());
    var failed = CondorHandler.status(PILOT, json.readTree("{\"ClusterId\":12,\"ProcId\":0,\"JobStatus\":4,\"ExitCode\":3}"));
    assertEquals(PilotState.FAILED, failed.state());
    assertEquals(OptionalInt.of(3), failed.exitCode());
    var killed = CondorHandler.status(PILOT, json.readTree("{\"ClusterId\":12,\"ProcId\":0,\"JobStatus\":4,\"ExitBySignal\":true,\"ExitSignal\":9}"));
    assertEquals(PilotState.FAILED, killed.state());
    assertTrue(killed.exitCode().isEmpty());
    HandlerException odd = assertThrows(HandlerException.class,
        () -> CondorHandler.status(PILOT, json.readTree("{\"ClusterId\":12,\"ProcId\":0,\"JobStatus\":9}")));
    assertEquals(HandlerException.Category.PROTOCOL, odd.category());
  }

  /** A second {@code condor_rm} while the first one's ad is still in the queue: HTCondor's own words, exit 1 (seen in CI on 23.9). */
  @Test
  void aRemovalAlreadyUnderWayIsToldApartFromOtherFailures() {
    var again = new Tool.Result(List.of("condor_rm", "646.0"), 1, "", "Job 646.0 already marked for removal\n");
    assertTrue(CondorTools.saysAlreadyRemoved(again));
    assertFalse(CondorTools.saysNotFound(again), "the job exists, so a hold or release of it must not pass as done");
    assertFalse(CondorTools.saysAlreadyRemoved(new Tool.Result(List.of("condor_rm", "646.0"), 1, "", "Failed to connect to schedd\n")));
  }

  @Test
  void submitsAnswerWithTheirJobIds() {
    assertEquals("12.0", CondorHandler.firstId("12.0 - 12.2\n", "submit"));
    HandlerException e = assertThrows(HandlerException.class, () -> CondorHandler.firstId("ERROR: no", "submit pilot p"));
    assertEquals(HandlerException.Category.PROTOCOL, e.category());
  }

  /** The pool's load from its ads; a number HTCondor never prints (a negative limit made the load negative) is a protocol error. */
  @Test
  void theLoadIsReadFromTheAdsAndImpossibleNumbersAreAProtocolError() {
    List<JsonNode> pending = CondorTools.parse("[{\"RequestCpus\": 4, \"AllowedJobDuration\": 100}, {}]", "condor_q -json");
    assertEquals(4 * 100 + 3600, CondorLoad.pendingCoreSeconds(pending, Duration.ofHours(1)), 1e-9);
    HandlerException negative = assertThrows(HandlerException.class, () -> CondorLoad.pendingCoreSeconds(
        CondorTools.parse("[{\"AllowedJobDuration\": -5}]", "condor_q -json"), Duration.ofHours(1)));
    assertEquals(HandlerException.Category.PROTOCOL, negative.category());
    assertEquals(new CondorLoad.Cores(4, 2), CondorLoad.cores(CondorTools.parse("[{\"SlotType\": \"Partitionable\", \"TotalSlotCpus\": 4},"
        + " {\"SlotType\": \"Dynamic\", \"Cpus\": 2, \"Activity\": \"Busy\"}]", "condor_status -json")));
    assertThrows(HandlerException.class, () -> CondorLoad.cores(CondorTools.parse("[{\"Cpus\": -8}]", "condor_status -json")));
  }
}
