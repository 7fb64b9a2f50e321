package org.coalition.coordination.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.RunResult;
import org.coalition.coordination.zookeeper.ZkRecords.ResultRecord;
import org.junit.jupiter.api.Test;

/** Results as the records in ZooKeeper hold them, across the versions that wrote them. */
class ZkRecordsTest {
  private static final String PATH = "/coalition/f/jobs/north/7/claim/result";

  private static ResultRecord read(String json) {
    return ZkRecords.read(PATH, json.getBytes(StandardCharsets.UTF_8), ResultRecord.class);
  }

  @Test
  void aResultWrittenBeforeRunsCarriedASignalReadsAsARunThatExited() {
    ResultRecord r = read("{\"executor\":\"south\",\"token\":77,\"run\":{\"start\":20,\"end\":80,\"exitCode\":3,\"output\":\"\"}}");
    assertEquals(new RunResult(20, 80, 3, 0, ""), r.run());
  }

  @Test
  void aResultWrittenBeforeTimeoutsWereToldReadsAsARunThatEndedByItself() {
    ResultRecord r = read("{\"executor\":\"south\",\"token\":77,\"run\":{\"start\":20,\"end\":80,\"exitCode\":0,\"signal\":15,\"output\":\"\"}}");
    assertEquals(new RunResult(20, 80, 0, 15, false, ""), r.run());
  }

  @Test
  void aResultWithASignalOrATimeoutReadsBackAsWritten() {
    for (RunResult run : new RunResult[] {new RunResult(20, 80, 0, 15, ""), new RunResult(20, 80, 0, 15, true, "")}) {
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
}
