package org.coalition.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.coalition.handler.HandlerException;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.PilotState;
import org.coalition.handler.QueueObservation;
import org.coalition.handler.RequestCost;
import org.coalition.job.JobLayout;
import org.junit.jupiter.api.Test;

/** The observation cache and the state mapping, over a hand-written fake of one REST version. */
class SlurmHandlerTest {
  /** A controller's job table; counts the calls the handler makes. */
  static final class FakeRest implements SlurmRest {
    final Map<String, SlurmJob> table = new LinkedHashMap<>();
    final boolean statesCall;
    final List<String> calls = new ArrayList<>();
    long lastUpdate = 1;

    FakeRest(boolean statesCall) {
      this.statesCall = statesCall;
    }

    void put(String id, String state, int cpus, long limit) {
      table.put(id, new SlurmJob(id, state, "batch", cpus, 0, limit, OptionalInt.empty(), "", "alice", false, ""));
      lastUpdate++;
    }

    @Override
    public String version() {
      return statesCall ? "v0.0.42" : "v0.0.38";
    }

    @Override
    public RequestCost cost() {
      return new RequestCost(calls.size(), 0);
    }

    @Override
    public String release() {
      return "test";
    }

    @Override
    public Snapshot<SlurmJob> jobs(long since) {
      calls.add("jobs " + since);
      return since >= lastUpdate ? null : new Snapshot<>(new ArrayList<>(table.values()), lastUpdate);
    }

    @Override
    public Map<String, String> jobStates(Collection<String> ids) {
      if (!statesCall) {
        return null;
      }
      calls.add("states");
      Map<String, String> states = new HashMap<>();
      table.forEach((id, j) -> states.put(id, j.state()));
      return states;
    }

    /** How many reads of single records succeed before each further one fails (-1: all succeed). */
    int recordReadsLeft = -1;

    @Override
    public List<SlurmJob> records(String id) {
      calls.add("job " + id);
      if (recordReadsLeft == 0) {
        throw new HandlerException(HandlerException.Category.UNAVAILABLE, "slurmrestd did not answer");
      }
      if (recordReadsLeft > 0) {
        recordReadsLeft--;
      }
      // as slurmrestd answers an array's job id: with every record of the array
      return table.values().stream().filter(j -> j.id().equals(id) || Long.toString(j.array().jobId()).equals(id)).toList();
    }

    @Override
    public Snapshot<SlurmNode> nodes(long since) {
      calls.add("nodes");
      return since > 0 ? null : new Snapshot<>(List.of(new SlurmNode("n1", Set.of("MIXED"), 8, 3, 16_000),
          new SlurmNode("n2", Set.of("IDLE", "DRAIN"), 16, 0, 64_000)), 5);
    }

    @Override
    public String submit(PilotSpec spec, String script) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void hold(String id, boolean hold, String user) {
      calls.add((hold ? "hold " : "release ") + id);
      // as the controller does: a hold by an operator is an administrator's, and a release clears it
      table.computeIfPresent(id, (k, j) -> new SlurmJob(j.id(), j.state(), j.partition(), j.cpus(), j.memoryMb(), j.timeLimitSeconds(),
          j.exitCode(), hold ? "JobHeldAdmin" : "None", j.user(), j.federable(), j.comment()));
    }

    /** What {@link #releaseAhead} throws; null: it releases. */
    HandlerException niceRefusal;

    @Override
    public void releaseAhead(String id, int points, String user) {
      calls.add("release " + id + " ahead " + points);
      if (niceRefusal != null) {
        throw niceRefusal;
      }
    }

    @Override
    public void comment(String id, String comment, String user) {
      calls.add("comment " + id + " " + comment);
      table.computeIfPresent(id, (k, j) -> new SlurmJob(j.id(), j.state(), j.partition(), j.cpus(), j.memoryMb(), j.timeLimitSeconds(),
          j.exitCode(), j.reason(), j.user(), j.federable(), comment));
    }

    /** What {@link #shrink} throws; null: it shrinks. */
    HandlerException shrinkRefusal;

    @Override
    public void shrink(String id, int minutes, String user) {
      calls.add("shrink " + id);
      if (shrinkRefusal != null) {
        throw shrinkRefusal;
      }
    }

    @Override
    public void cancel(String id, String user) {
      throw new UnsupportedOperationException();
    }
  }

  private static SlurmHandler handler(FakeRest rest, Clock clock) {
    SlurmConfig config = new SlurmConfig("http://unused", SlurmCredentials.tokenFile("root", Path.of("/none")),
        "root", Optional.empty(), Duration.ofSeconds(1), 3600, Duration.ofMinutes(10), clock, Optional.empty(), List.of("scontrol"));
    return new SlurmHandler(rest, config);
  }

  @Test
  void stateOnlyPollsFetchDetailsOnlyForNewJobsAndTheWholeListWhenManyAreNew() {
    FakeRest rest = new FakeRest(true);
    rest.put("1", "PENDING", 4, 600);
    rest.put("2", "RUNNING", 2, 600);
    rest.put("3", "PENDING", 1, -1);
    SlurmHandler handler = handler(rest, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
    QueueObservation first = handler.observe();
    assertEquals(List.of("states", "jobs 0", "nodes"), rest.calls, "the first poll reads the whole list once");
    assertEquals(2, first.pendingJobs());
    assertEquals(4 * 600 + 3600, first.pendingCoreSeconds(), 1e-9, "a job without a limit counts as unlimitedSeconds");
    assertEquals(8, first.totalCores(), "a drained node's cores are not capacity");
    assertEquals(3, first.allocatedCores());

    rest.calls.clear();
    rest.put("4", "PENDING", 2, 60);
    rest.table.put("1", new SlurmJob("1", "RUNNING", "batch", 4, 0, 600, OptionalInt.empty(), "", "alice", false, ""));
    rest.table.remove("3");
    QueueObservation second = handler.observe();
    assertEquals(List.of("states", "job 4", "nodes"), rest.calls, "one new job: its details alone");
    assertEquals(1, second.pendingJobs());
    assertEquals(120, second.pendingCoreSeconds(), 1e-9);
    assertEquals(3, second.cost().requests());

    rest.calls.clear();
    for (int i = 0; i <= SlurmHandler.BULK; i++) {
      rest.put("n" + i, "PENDING", 1, 60);
    }
    QueueObservation third = handler.observe();
    assertEquals(List.of("states", "jobs 0", "nodes"), rest.calls, "more than BULK new jobs: the whole list once");
    assertEquals(SlurmHandler.BULK + 2, third.pendingJobs());
  }

  /** A handler that has observed one opted-in job, 5, waiting for room on {@code rest}'s controller. */
  private static SlurmHandler observedWaiting(FakeRest rest) {
    rest.table.put("5", new SlurmJob("5", "PENDING", "federated", 2, 0, 600, OptionalInt.empty(), "Resources", "alice", true, ""));
    SlurmHandler handler = handler(rest, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
    handler.observe();
    return handler;
  }

  @Test
  void aJobJustParkedIsListedHeldWithoutWaitingForTheNextWholeList() {
    FakeRest rest = new FakeRest(true);
    SlurmHandler handler = observedWaiting(rest);
    assertFalse(handler.federable().get(0).held());
    handler.park("5");
    assertTrue(handler.federable().get(0).held(), "the state-only poll would not show the hold (the job stays PENDING): it was read again");
    handler.observe();
    assertTrue(handler.federable().get(0).held());
    handler.unpark("5");
    assertFalse(handler.federable().get(0).held());
  }

  @Test
  void aJobAnAdministratorHeldSinceTheLastObservationIsNotParked() {
    FakeRest rest = new FakeRest(true);
    SlurmHandler handler = observedWaiting(rest);
    rest.table.put("5", new SlurmJob("5", "PENDING", "federated", 2, 0, 600, OptionalInt.empty(), "JobHeldAdmin", "alice", true, ""));
    rest.calls.clear();
    HandlerException refused = assertThrows(HandlerException.class, () -> handler.park("5"));
    assertEquals(HandlerException.Category.REJECTED, refused.category());
    assertEquals(List.of("job 5"), rest.calls, "its record read, and nothing held");
  }

  @Test
  void aParkWhoseRecordCannotBeReadAgainIsStillAPark() {
    FakeRest rest = new FakeRest(true);
    SlurmHandler handler = observedWaiting(rest);
    rest.recordReadsLeft = 1; // the park's own read, then slurmrestd stops answering
    handler.park("5"); // no exception: the hold is made, and the daemon keeps its record of the park
    assertTrue(rest.calls.contains("hold 5"));
  }

  @Test
  void aPilotFitsOnlyWhereAUsableNodeHasItsCoresAndMemory() {
    FakeRest rest = new FakeRest(true);
    SlurmHandler handler = handler(rest, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
    assertTrue(handler.canHold(64, 1_000_000, JobLayout.ONE), "before any observation nothing is known: yes");
    handler.observe();
    assertTrue(handler.canHold(8, 16_000, JobLayout.ONE), "n1: 8 CPUs, 16,000 MiB");
    assertTrue(handler.canHold(2, 0, JobLayout.ONE), "a pilot of the site's default memory");
    assertFalse(handler.canHold(16, 1_000, JobLayout.ONE), "only drained n2 has 16 CPUs");
    assertFalse(handler.canHold(4, 20_000, JobLayout.ONE), "only drained n2 has 20,000 MiB");
  }

  @Test
  void withoutAStatesCallTheListIsReadOnlyWhenItChanged() {
    FakeRest rest = new FakeRest(false);
    rest.put("1", "PENDING", 4, 600);
    SlurmHandler handler = handler(rest, Clock.systemUTC());
    assertEquals(1, handler.observe().pendingJobs());
    rest.calls.clear();
    assertEquals(1, handler.observe().pendingJobs());
    assertEquals(List.of("jobs 2", "nodes"), rest.calls);
    rest.put("2", "PENDING", 1, 60);
    assertEquals(2, handler.observe().pendingJobs());
  }

  @Test
  void slurmStatesMapToPilotStates() {
    PilotHandle p = new PilotHandle("slurm", "7");
    assertEquals(PilotState.HELD, SlurmPilots.status(p, job("PENDING", "JobHeldUser")).state());
    assertEquals(PilotState.HELD, SlurmPilots.status(p, job("PENDING", "JobHeldAdmin")).state());
    assertEquals(PilotState.PENDING, SlurmPilots.status(p, job("PENDING", "Resources")).state());
    assertEquals(PilotState.RUNNING, SlurmPilots.status(p, job("COMPLETING", "")).state());
    assertEquals(PilotState.COMPLETED, SlurmPilots.status(p, job("COMPLETED", "")).state());
    assertEquals(PilotState.FAILED, SlurmPilots.status(p, job("TIMEOUT", "")).state());
    assertEquals(PilotState.FAILED, SlurmPilots.status(p, job("OUT_OF_MEMORY", "")).state());
    assertEquals(PilotState.CANCELLED, SlurmPilots.status(p, job("CANCELLED", "")).state());
    assertEquals(PilotState.UNKNOWN, SlurmPilots.status(p, job("SOMETHING_NEW", "")).state());
  }

  @Test
  void theScriptQuotesEveryWordAndEndsARequeuedRun() {
    PilotSpec spec = new PilotSpec("p1", "alice", 1, 0, 60, "", List.of("/bin/echo", "it's", "$HOME"), Map.of(), "/tmp", false);
    String script = SlurmPilots.script(spec);
    assertTrue(script.endsWith("exec '/bin/echo' 'it'\\''s' '$HOME'\n"), script);
    assertTrue(script.contains("SLURM_RESTART_COUNT") && script.contains("exit " + SlurmPilots.REQUEUED_EXIT), script);
    assertEquals("p1", SlurmPilots.environment(spec).get("COALITION_PILOT"));
    assertTrue(SlurmPilots.environment(spec).containsKey("PATH"));
  }

  private static SlurmJob job(String state, String reason) {
    return new SlurmJob("7", state, "batch", 1, 0, 60, OptionalInt.empty(), reason, "alice", false, "");
  }
}
