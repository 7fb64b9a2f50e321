package org.coalition.handler;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.coalition.handler.HandlerException.Category;
import org.coalition.job.JobLayout;

/**
 * The batch systems of a site that lists several handlers, seen by the broker as one: the site
 * takes part in the federation as one member, with the sum of their load and cores.
 *
 * <ul>
 *   <li>Observation: pending work and cores are summed. When one of them cannot be observed the
 *       whole observation fails (naming it), and the broker waits a round: acting on a stale view
 *       of one system could withdraw jobs it still holds.
 *   <li>Pilots go to the system with the most free cores at the last observation, preferring one
 *       where the pilot fits. Their handles name the system: {@code NAME.KIND:ID}.
 *   <li>Users' jobs of every system with a home queue are published; their ids name the system,
 *       {@code NAME.ID} (e.g. {@code clusterb.4127}), and so do the API and CLI lookups. Local
 *       room for a job is judged on its own system ({@link #room}).
 * </ul>
 *
 * With one handler the daemon uses it directly and ids stay the batch system's own.
 */
public final class SiteHandlers implements ResourceHandler, HomeQueue {
  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,31}");

  /** One batch system of the site: its name in the site file, its handler, and its home queue when its users' jobs are published. */
  public record Member(String name, ResourceHandler handler, Optional<HomeQueue> home) {
    public Member {
      if (name == null || !NAME.matcher(name).matches()) {
        throw new IllegalArgumentException("handler name '" + name + "' must be 1-32 lowercase letters, digits, '_' or '-'"
            + " (it prefixes job ids: NAME.ID)");
      }
    }
  }

  private final List<Member> members;
  private final Map<String, Member> byName = new LinkedHashMap<>();
  private volatile Map<String, QueueObservation> last = Map.of();

  public SiteHandlers(List<Member> members) {
    if (members.size() < 2) {
      throw new IllegalArgumentException("a site of " + members.size() + " handler(s) needs no SiteHandlers; use the handler itself");
    }
    this.members = List.copyOf(members);
    for (Member m : this.members) {
      if (byName.put(m.name(), m) != null) {
        throw new IllegalArgumentException("two handlers are named '" + m.name() + "'");
      }
    }
  }

  /** Whether any of the systems publishes its users' jobs. */
  public boolean hasHomeQueue() {
    return members.stream().anyMatch(m -> m.home().isPresent());
  }

  @Override
  public String describe() {
    return members.stream().map(m -> m.name() + ": " + m.handler().describe()).collect(Collectors.joining("; "));
  }

  @Override
  public QueueObservation observe() {
    Map<String, QueueObservation> now = new LinkedHashMap<>();
    double at = 0;
    int pendingJobs = 0;
    double pendingCoreSeconds = 0;
    int allocated = 0;
    int total = 0;
    RequestCost cost = RequestCost.NONE;
    List<PartitionLoad> partitions = new ArrayList<>();
    for (Member m : members) {
      QueueObservation o = on(m, () -> m.handler().observe());
      now.put(m.name(), o);
      at = Math.max(at, o.observedAt());
      pendingJobs += o.pendingJobs();
      pendingCoreSeconds += o.pendingCoreSeconds();
      allocated += o.allocatedCores();
      total += o.totalCores();
      cost = cost.plus(o.cost());
      for (PartitionLoad p : o.partitions()) {
        partitions.add(new PartitionLoad(m.name() + "." + p.partition(), p.pendingJobs(), p.pendingCoreSeconds()));
      }
    }
    last = now;
    return new QueueObservation(at, pendingJobs, pendingCoreSeconds, partitions, allocated, total, cost);
  }

  /** Whether one of the site's batch systems can hold it. */
  @Override
  public boolean canHold(int cores, long memoryMb, JobLayout layout) {
    return members.stream().anyMatch(m -> m.handler().canHold(cores, memoryMb, layout));
  }

  /**
   * On the system with the most free cores where the pilot fits, among those that can hold it at
   * all (all of them when none says so), else on the one with the most free cores; the first
   * listed before unobserved ones.
   */
  @Override
  public PilotHandle submit(PilotSpec spec) {
    Map<String, QueueObservation> seen = last;
    List<Member> able = members.stream().filter(m -> m.handler().canHold(spec.cores(), spec.memoryMb(), spec.layout())).toList();
    Member best = (able.isEmpty() ? members : able).get(0);
    int bestFree = Integer.MIN_VALUE;
    boolean bestFits = false;
    for (Member m : able.isEmpty() ? members : able) {
      QueueObservation o = seen.get(m.name());
      int free = o == null ? 0 : o.totalCores() - o.allocatedCores();
      boolean fits = free >= spec.cores();
      if ((fits && !bestFits) || (fits == bestFits && free > bestFree)) {
        best = m;
        bestFree = free;
        bestFits = fits;
      }
    }
    Member chosen = best;
    return outer(chosen, on(chosen, () -> chosen.handler().submit(spec)));
  }

  @Override
  public void hold(PilotHandle pilot) {
    onPilot(pilot, ResourceHandler::hold);
  }

  @Override
  public void release(PilotHandle pilot) {
    onPilot(pilot, ResourceHandler::release);
  }

  @Override
  public void cancel(PilotHandle pilot) {
    onPilot(pilot, ResourceHandler::cancel);
  }

  @Override
  public PilotStatus status(PilotHandle pilot) {
    Member m = member(pilot);
    PilotStatus s = on(m, () -> m.handler().status(inner(pilot)));
    return new PilotStatus(pilot, s.state(), s.exitCode(), s.detail());
  }

  @Override
  public Map<PilotHandle, PilotStatus> statuses(Collection<PilotHandle> pilots) {
    Map<Member, List<PilotHandle>> grouped = new LinkedHashMap<>();
    for (PilotHandle p : pilots) {
      grouped.computeIfAbsent(member(p), k -> new ArrayList<>()).add(p);
    }
    Map<PilotHandle, PilotStatus> out = new HashMap<>();
    for (Map.Entry<Member, List<PilotHandle>> e : grouped.entrySet()) {
      Map<PilotHandle, PilotHandle> outerOf = new HashMap<>();
      e.getValue().forEach(p -> outerOf.put(inner(p), p));
      Map<PilotHandle, PilotStatus> states = on(e.getKey(), () -> e.getKey().handler().statuses(outerOf.keySet()));
      outerOf.forEach((in, outer) -> {
        PilotStatus s = states.get(in);
        out.put(outer, s == null ? PilotStatus.unknown(outer, e.getKey().name() + " did not report it")
            : new PilotStatus(outer, s.state(), s.exitCode(), s.detail()));
      });
    }
    return out;
  }

  @Override
  public List<HomeJob> federable() {
    List<HomeJob> out = new ArrayList<>();
    for (Member m : members) {
      if (m.home().isPresent()) {
        for (HomeJob j : m.home().get().federable()) {
          out.add(j.withId(m.name() + "." + j.id()));
        }
      }
    }
    return out;
  }

  @Override
  public String payload(String jobId) {
    return home(jobId).payload(localId(jobId));
  }

  @Override
  public void park(String jobId) {
    home(jobId).park(localId(jobId));
  }

  @Override
  public Optional<String> owner(String jobId) {
    return memberOf(jobId).flatMap(Member::home).flatMap(h -> h.owner(localId(jobId)));
  }

  @Override
  public void unpark(String jobId) {
    home(jobId).unpark(localId(jobId));
  }

  @Override
  public void replay(String jobId, RemoteRun run) {
    home(jobId).replay(localId(jobId), run);
  }

  @Override
  public void note(String jobId, String text) {
    home(jobId).note(localId(jobId), text);
  }

  /** What the most cautious of its systems takes: the jobs of a burst may be any system's. */
  @Override
  public int concurrentCalls() {
    return members.stream().flatMap(m -> m.home().stream()).mapToInt(HomeQueue::concurrentCalls).min().orElse(1);
  }

  /**
   * The job's own system, as that system sees room for it at the last observation (a job runs on
   * the cluster it was submitted to).
   */
  @Override
  public Room room(HomeJob job, QueueObservation obs) {
    Optional<Member> m = memberOf(job.id());
    QueueObservation o = m.isEmpty() ? null : last.get(m.get().name());
    if (o == null || m.get().home().isEmpty()) {
      return HomeQueue.super.room(job, obs);
    }
    Room there = m.get().home().get().room(job.withId(localId(job.id())), o);
    return new Room(m.get().name(), there.freeCores(), there.shapeFree());
  }

  @Override
  public void close() {
    RuntimeException first = null;
    for (Member m : members) {
      try {
        m.handler().close();
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  // --- names in ids and handles ----------------------------------------------------------------

  private static PilotHandle outer(Member m, PilotHandle inner) {
    return new PilotHandle(m.name() + "." + inner.system(), inner.nativeId());
  }

  private static PilotHandle inner(PilotHandle outer) {
    return new PilotHandle(outer.system().substring(outer.system().indexOf('.') + 1), outer.nativeId());
  }

  private Member member(PilotHandle pilot) {
    int dot = pilot.system().indexOf('.');
    Member m = dot < 0 ? null : byName.get(pilot.system().substring(0, dot));
    if (m == null) {
      throw new HandlerException(Category.NOT_FOUND, "pilot " + pilot + " names none of this site's batch systems " + byName.keySet());
    }
    return m;
  }

  /** The batch system a job's id ({@code NAME.ID}) names, if it is one of this site's. */
  private Optional<Member> memberOf(String jobId) {
    int dot = jobId.indexOf('.');
    return dot < 0 ? Optional.empty() : Optional.ofNullable(byName.get(jobId.substring(0, dot)));
  }

  private HomeQueue home(String jobId) {
    Member m = memberOf(jobId).orElseThrow(() -> new HandlerException(Category.NOT_FOUND, "job '" + jobId
        + "' names none of this site's batch systems: its id is NAME.ID, NAME one of " + byName.keySet()));
    return m.home().orElseThrow(() -> new HandlerException(Category.REJECTED,
        "job '" + jobId + "': batch system " + m.name() + " publishes no jobs of its users (its handler has no results folder)"));
  }

  private static String localId(String jobId) {
    return jobId.substring(jobId.indexOf('.') + 1);
  }

  private void onPilot(PilotHandle pilot, BiConsumer<ResourceHandler, PilotHandle> call) {
    Member m = member(pilot);
    on(m, () -> {
      call.accept(m.handler(), inner(pilot));
      return null;
    });
  }

  /** Runs one call on one system; its failure names the system. */
  private static <T> T on(Member m, Supplier<T> call) {
    try {
      return call.get();
    } catch (HandlerException e) {
      throw new HandlerException(e.category(), m.name() + ": " + e.getMessage(), e);
    }
  }
}
