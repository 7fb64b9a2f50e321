package org.coalition.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.coalition.handler.HandlerException.Category;
import org.junit.jupiter.api.Test;

class SiteHandlersTest {
  /** A batch system in memory: fixed cores, a list of waiting user jobs, pilots numbered from 1. */
  private static final class Fake implements ResourceHandler, HomeQueue {
    final int total;
    int allocated;
    boolean down;
    final Map<String, HomeJob> jobs = new LinkedHashMap<>();
    final Map<String, RemoteRun> replayed = new HashMap<>();
    final Map<String, PilotState> pilots = new LinkedHashMap<>();
    final List<String> calls = new ArrayList<>();

    Fake(int total, int allocated) {
      this.total = total;
      this.allocated = allocated;
    }

    @Override
    public String describe() {
      return "fake " + total + " cores";
    }

    @Override
    public QueueObservation observe() {
      if (down) {
        throw new HandlerException(Category.UNAVAILABLE, "connection refused");
      }
      return new QueueObservation(10, jobs.size(), jobs.size() * 60.0, List.of(new PartitionLoad("batch", jobs.size(), jobs.size() * 60.0)),
          allocated, total, new RequestCost(2, 100));
    }

    @Override
    public PilotHandle submit(PilotSpec spec) {
      String id = String.valueOf(pilots.size() + 1);
      pilots.put(id, PilotState.PENDING);
      allocated += spec.cores();
      return new PilotHandle("fake", id);
    }

    @Override
    public void hold(PilotHandle pilot) {
      calls.add("hold " + pilot);
    }

    @Override
    public void release(PilotHandle pilot) {
      calls.add("release " + pilot);
    }

    @Override
    public void cancel(PilotHandle pilot) {
      calls.add("cancel " + pilot);
      pilots.put(pilot.nativeId(), PilotState.CANCELLED);
    }

    @Override
    public PilotStatus status(PilotHandle pilot) {
      PilotState s = pilots.get(pilot.nativeId());
      return s == null ? PilotStatus.unknown(pilot, "no such pilot") : new PilotStatus(pilot, s, OptionalInt.empty(), s.name());
    }

    @Override
    public Map<PilotHandle, PilotStatus> statuses(Collection<PilotHandle> handles) {
      Map<PilotHandle, PilotStatus> out = new HashMap<>();
      handles.forEach(h -> out.put(h, status(h)));
      return out;
    }

    @Override
    public List<HomeJob> federable() {
      return List.copyOf(jobs.values());
    }

    @Override
    public String payload(String jobId) {
      return "#!/bin/sh\necho " + known(jobId).id() + "\n";
    }

    @Override
    public void park(String jobId) {
      HomeJob j = known(jobId);
      jobs.put(jobId, HomeJob.builder(j.id(), j.user()).partition(j.partition()).cpus(j.cpus()).timeLimitSeconds(j.timeLimitSeconds()).held(true)
          .ready(j.ready()).build());
    }

    @Override
    public void unpark(String jobId) {
      HomeJob j = known(jobId);
      jobs.put(jobId, HomeJob.builder(j.id(), j.user()).partition(j.partition()).cpus(j.cpus()).timeLimitSeconds(j.timeLimitSeconds())
          .ready(j.ready()).build());
    }

    @Override
    public void replay(String jobId, RemoteRun run) {
      known(jobId);
      replayed.put(jobId, run);
    }

    private HomeJob known(String jobId) {
      HomeJob j = jobs.get(jobId);
      if (j == null) {
        throw new HandlerException(Category.NOT_FOUND, "no job " + jobId);
      }
      return j;
    }

    @Override
    public void close() {
      calls.add("close");
    }
  }

  /** Systems clustera and clusterb, each with its home queue or without. */
  private static SiteHandlers site(Fake a, boolean aPublishes, Fake b, boolean bPublishes) {
    return new SiteHandlers(List.of(new SiteHandlers.Member("clustera", a, aPublishes ? Optional.of(a) : Optional.empty()),
        new SiteHandlers.Member("clusterb", b, bPublishes ? Optional.of(b) : Optional.empty())));
  }

  private static PilotSpec pilot(int cores) {
    return new PilotSpec("coalition-pilot-1", "alice", cores, 0, 600, "", List.of("/bin/true"), Map.of(), "/tmp", false);
  }

  private static HomeJob waiting(String id, int cpus) {
    return HomeJob.builder(id, "alice").partition("federated").cpus(cpus).timeLimitSeconds(600).build();
  }

  @Test
  void loadAndCoresAreSummedAndPartitionsNamedBySystem() {
    Fake a = new Fake(8, 8);
    Fake b = new Fake(16, 4);
    a.jobs.put("41", waiting("41", 4));
    SiteHandlers site = site(a, true, b, false);
    QueueObservation o = site.observe();
    assertEquals(24, o.totalCores());
    assertEquals(12, o.allocatedCores());
    assertEquals(1, o.pendingJobs());
    assertEquals(new RequestCost(4, 200), o.cost());
    assertEquals(List.of("clustera.batch", "clusterb.batch"), o.partitions().stream().map(PartitionLoad::partition).toList());
    assertEquals("clustera: fake 8 cores; clusterb: fake 16 cores", site.describe());
  }

  @Test
  void aPilotGoesWhereItFitsAndItsHandleLeadsBackThere() {
    Fake a = new Fake(8, 6);
    Fake b = new Fake(8, 2);
    SiteHandlers site = site(a, false, b, false);
    site.observe();
    PilotHandle first = site.submit(pilot(4));
    assertEquals(new PilotHandle("clusterb.fake", "1"), first, "b has 6 free cores, a 2");
    site.observe();
    PilotHandle second = site.submit(pilot(2));
    assertEquals(new PilotHandle("clustera.fake", "1"), second, "both have 2 free: the first listed");
    site.observe();
    PilotHandle third = site.submit(pilot(4));
    assertEquals("clusterb.fake", third.system(), "it fits nowhere (a has 0 free, b 2): the one with the most free cores");

    site.cancel(first);
    assertEquals(List.of("cancel fake:1"), b.calls);
    Map<PilotHandle, PilotStatus> states = site.statuses(List.of(first, second));
    assertEquals(PilotState.CANCELLED, states.get(first).state());
    assertEquals(first, states.get(first).pilot());
    assertEquals(PilotState.PENDING, states.get(second).state());
    assertEquals(second, site.status(second).pilot());
    HandlerException e = assertThrows(HandlerException.class, () -> site.hold(new PilotHandle("clusterc.fake", "1")));
    assertEquals(Category.NOT_FOUND, e.category());
  }

  @Test
  void usersJobsCarryTheirSystemsNameBothWays() {
    Fake a = new Fake(8, 8);
    Fake b = new Fake(8, 8);
    a.jobs.put("41", waiting("41", 4));
    b.jobs.put("41", waiting("41", 2));
    SiteHandlers site = site(a, true, b, true);
    assertEquals(List.of("clustera.41", "clusterb.41"), site.federable().stream().map(HomeJob::id).toList());
    HomeJob task = HomeJob.builder("7_3", "alice").partition("federated").cpus(1).memoryMb(512).timeLimitSeconds(600).workDir("/home/alice/run")
        .environment(Map.of("SLURM_ARRAY_TASK_ID", "3")).build();
    b.jobs.put("7_3", task);
    HomeJob carried = site.federable().stream().filter(j -> j.id().equals("clusterb.7_3")).findFirst().orElseThrow();
    assertEquals(HomeJob.builder("clusterb.7_3", "alice").partition("federated").cpus(1).memoryMb(512).timeLimitSeconds(600)
        .workDir("/home/alice/run").environment(Map.of("SLURM_ARRAY_TASK_ID", "3"))
        .build(), carried, "all but the id as the system said: memory, folder, array variables");
    b.jobs.remove("7_3");
    site.park("clusterb.41");
    assertTrue(b.jobs.get("41").held());
    assertTrue(!a.jobs.get("41").held(), "the job of the same number on the other system is untouched");
    assertEquals("#!/bin/sh\necho 41\n", site.payload("clustera.41"));
    RemoteRun run = RemoteRun.exited("out\n", "", 3);
    site.replay("clusterb.41", run);
    assertEquals(Map.of("41", run), b.replayed);
    assertTrue(a.replayed.isEmpty());

    a.allocated = 8;
    b.allocated = 5;
    QueueObservation o = site.observe();
    HomeJob onA = HomeJob.builder("clustera.41", "alice").cpus(1).timeLimitSeconds(60).build();
    assertEquals(new HomeQueue.Room("clustera", 0), site.room(onA, o), "a job is judged on its own system");
    assertEquals(new HomeQueue.Room("clusterb", 3), site.room(onA.withId("clusterb.41"), o));

    HandlerException unknown = assertThrows(HandlerException.class, () -> site.park("41"));
    assertEquals(Category.NOT_FOUND, unknown.category());
    assertTrue(unknown.getMessage().contains("its id is NAME.ID, NAME one of [clustera, clusterb]"), unknown.getMessage());
  }

  @Test
  void aSystemThatPublishesNothingRefusesJobCalls() {
    Fake a = new Fake(8, 0);
    Fake b = new Fake(8, 0);
    b.jobs.put("7", waiting("7", 1));
    SiteHandlers site = site(a, true, b, false);
    assertTrue(site.federable().isEmpty(), "clusterb's jobs are not published: it has no home queue");
    HandlerException e = assertThrows(HandlerException.class, () -> site.park("clusterb.7"));
    assertEquals(Category.REJECTED, e.category());
    assertTrue(site.hasHomeQueue());
  }

  @Test
  void oneSystemDownFailsTheObservationNamingIt() {
    Fake a = new Fake(8, 0);
    Fake b = new Fake(8, 0);
    b.down = true;
    SiteHandlers site = site(a, false, b, false);
    HandlerException e = assertThrows(HandlerException.class, site::observe);
    assertEquals(Category.UNAVAILABLE, e.category());
    assertEquals("clusterb: connection refused", e.getMessage());
    site.close();
    assertEquals(List.of("close"), a.calls);
    assertEquals(List.of("close"), b.calls);
  }

  @Test
  void namesAreCheckedAndOneSystemNeedsNoComposite() {
    Fake a = new Fake(8, 0);
    assertThrows(IllegalArgumentException.class, () -> new SiteHandlers.Member("Cluster.A", a, Optional.empty()));
    assertThrows(IllegalArgumentException.class, () -> new SiteHandlers(List.of(new SiteHandlers.Member("a", a, Optional.empty()))));
    assertThrows(IllegalArgumentException.class, () -> new SiteHandlers(List.of(new SiteHandlers.Member("a", a, Optional.empty()),
        new SiteHandlers.Member("a", new Fake(4, 0), Optional.empty()))));
  }
}
