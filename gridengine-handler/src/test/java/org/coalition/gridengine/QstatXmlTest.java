package org.coalition.gridengine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.coalition.handler.HandlerException;
import org.coalition.handler.PartitionLoad;
import org.junit.jupiter.api.Test;

/** Reading qstat's XML: the shapes Grid Engine 8.1.9 prints, and what is not qstat's. */
class QstatXmlTest {
  /** The queue summary as Grid Engine 8.1.9 prints it (the fuzzer edits this too). */
  static final String SUMMARY = """
      <?xml version='1.0'?>
      <job_info>
        <cluster_queue_summary><name>all.q</name><load>0.1</load><used>3</used><resv>0</resv><available>1</available><total>8</total>
          <temp_disabled>4</temp_disabled><manual_intervention>0</manual_intervention></cluster_queue_summary>
        <cluster_queue_summary><name>gpu.q</name><load>0.1</load><used>1</used><resv>0</resv><available>1</available><total>2</total>
          <temp_disabled>0</temp_disabled><manual_intervention>0</manual_intervention></cluster_queue_summary>
      </job_info>
      """;

  /** Pending jobs as Grid Engine 8.1.9 prints them (the fuzzer edits this too). */
  static final String PENDING = """
      <?xml version='1.0'?>
      <job_info  xmlns:xsd="http://arc.liv.ac.uk/repos/darcs/sge/source/dist/util/resources/schemas/qstat/qstat.xsd">
        <queue_info>
        </queue_info>
        <job_info>
          <job_list state="pending">
            <JB_job_number>58</JB_job_number>
            <state>hqw</state>
            <slots>3</slots>
            <requested_pe name="smp">3</requested_pe>
            <hard_request name="h_rt" resource_contribution="0.000000">120</hard_request>
          </job_list>
          <job_list state="pending">
            <JB_job_number>60</JB_job_number>
            <state>qw</state>
            <slots>1</slots>
            <hard_request name="h_rt" resource_contribution="0.000000">1:00:00</hard_request>
            <hard_req_queue>short.q</hard_req_queue>
            <tasks>1-5:2,9</tasks>
          </job_list>
          <job_list state="pending">
            <JB_job_number>61</JB_job_number>
            <state>Eqw</state>
            <slots>1</slots>
          </job_list>
          <job_list state="pending">
            <JB_job_number>62</JB_job_number>
            <state>qw</state>
            <slots>2</slots>
          </job_list>
        </job_info>
      </job_info>
      """;

  @Test
  void pendingJobsCountTasksSlotsAndTimeLimitsPerQueue() {
    QstatXml.Pending p = QstatXml.pending(PENDING, Duration.ofMinutes(30), "all.q");
    assertEquals(1 + 4 + 1, p.jobs(), "an Eqw job waits for an administrator and is not counted");
    assertEquals(3 * 120 + 4 * 3600 + 2 * 1800, p.coreSeconds(), 1e-9);
    assertEquals(List.of(new PartitionLoad("all.q", 2, 3 * 120 + 2 * 1800), new PartitionLoad("short.q", 4, 4 * 3600)), p.queues());
  }

  @Test
  void slotsAreUsedAndUsableOfTheChosenQueues() {
    assertEquals(new QstatXml.Slots(4, 6), QstatXml.slots(SUMMARY, List.of()));
    assertEquals(new QstatXml.Slots(3, 4), QstatXml.slots(SUMMARY, List.of("all.q")));
  }

  @Test
  void whatIsNotQstatsXmlIsAProtocolError() {
    HandlerException notXml = assertThrows(HandlerException.class, () -> QstatXml.pending("error: commlib error", Duration.ZERO, ""));
    assertEquals(HandlerException.Category.PROTOCOL, notXml.category());
    assertTrue(notXml.getMessage().contains("commlib error"), notXml.getMessage());
    HandlerException entity = assertThrows(HandlerException.class, () -> QstatXml.pending(
        "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><job_info>&e;</job_info>", Duration.ZERO, ""));
    assertEquals(HandlerException.Category.PROTOCOL, entity.category(), "no document type, no external entities");
    HandlerException shape = assertThrows(HandlerException.class, () -> QstatXml.slots(
        "<job_info><cluster_queue_summary><name>q</name><used>x</used></cluster_queue_summary></job_info>", List.of()));
    assertTrue(shape.getMessage().contains("<total>") || shape.getMessage().contains("<used>"), shape.getMessage());
  }

  /** Found by QstatXmlFuzzTest, kept: a negative or endless time limit or count made the queue's core-seconds negative. */
  @Test
  void negativeOrEndlessTimesAndCountsAreAProtocolError() {
    for (String limit : List.of("-1:00:00", "NaN", "1e400", "1:2:3:4")) {
      String xml = PENDING.replace("<hard_request name=\"h_rt\" resource_contribution=\"0.000000\">120</hard_request>",
          "<hard_request name=\"h_rt\" resource_contribution=\"0.000000\">" + limit + "</hard_request>");
      HandlerException e = assertThrows(HandlerException.class, () -> QstatXml.pending(xml, Duration.ofMinutes(30), "all.q"), limit);
      assertEquals(HandlerException.Category.PROTOCOL, e.category());
    }
    HandlerException slots = assertThrows(HandlerException.class, () -> QstatXml.pending(PENDING.replace("<slots>3</slots>", "<slots>-3</slots>"),
        Duration.ofMinutes(30), "all.q"));
    assertTrue(slots.getMessage().contains("0 or more"), slots.getMessage());
    assertThrows(HandlerException.class, () -> QstatXml.pending(PENDING.replace("<tasks>1-5:2,9</tasks>", "<tasks>0-5</tasks>"),
        Duration.ofMinutes(30), "all.q"));
  }

  /** Found by QstatXmlFuzzTest in CI, kept: a range of separators only ({@code :} or {@code -}) split into nothing and escaped as an index error. */
  @Test
  void aTaskRangeOfSeparatorsOnlyIsAProtocolError() {
    for (String range : List.of(":", "-", "1-5,:", "-:2", "1-")) {
      HandlerException e = assertThrows(HandlerException.class,
          () -> QstatXml.pending(PENDING.replace("<tasks>1-5:2,9</tasks>", "<tasks>" + range + "</tasks>"), Duration.ofMinutes(30), "all.q"), range);
      assertEquals(HandlerException.Category.PROTOCOL, e.category(), range);
    }
  }
}
