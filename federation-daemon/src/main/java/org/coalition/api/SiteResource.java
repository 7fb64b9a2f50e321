package org.coalition.api;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import org.coalition.api.model.ContractView;
import org.coalition.api.model.Contracts;
import org.coalition.api.model.DecisionView;
import org.coalition.api.model.Drain;
import org.coalition.api.model.Federation;
import org.coalition.api.model.Flow;
import org.coalition.api.model.Flows;
import org.coalition.api.model.Health;
import org.coalition.api.model.JobView;
import org.coalition.api.model.Ledger;
import org.coalition.api.model.LedgerRow;
import org.coalition.api.model.Participation;
import org.coalition.api.model.ParticipationChange;
import org.coalition.api.model.RecentDecisions;
import org.coalition.api.model.SiteView;
import org.coalition.api.model.Status;
import org.coalition.coordination.Allowances;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.FederatedJob;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.SiteInfo;
import org.coalition.coordination.SiteLedger;
import org.coalition.coordination.SiteStatus;
import org.coalition.daemon.BatchHealth;
import org.coalition.daemon.Broker;
import org.coalition.daemon.home.FinishedJob;
import org.coalition.daemon.market.ContractBook;
import org.coalition.handler.QueueObservation;
import org.coalition.policy.contracts.ContractLifecycle;
import org.coalition.policy.text.Numbers;

/**
 * What operators, monitoring and the site's users read, and the operators' writes: the endpoints of
 * docs/api.md other than the pilots' ({@link PilotResource}) and the peer daemons' ({@link
 * PeerResource}); {@code src/main/resources/openapi.yaml} describes them all. Who may call what is
 * settled before a request gets here, by {@link ApiGate}.
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public final class SiteResource {
  private final Broker broker;
  private final Coordination coordination;
  private final DaemonHealth health;
  private final Metrics metrics;

  /** {@code shed} counts the connections closed unread for their client's limit ({@link ConnectionsPerAddress}). */
  SiteResource(Broker broker, DaemonHealth health, LongSupplier shed) {
    this.broker = broker;
    this.coordination = broker.coordination();
    this.health = health;
    this.metrics = new Metrics(broker, health, shed);
  }

  // --- views -----------------------------------------------------------------------------

  @GET
  @Path("v1/status")
  public Status status() {
    QueueObservation o = broker.lastObservation().orElseThrow(
        () -> new ApiError(ApiError.Code.UNAVAILABLE, "the daemon has not observed its batch system yet; try again in a few seconds"));
    return new Status(broker.settings().site(), health.handler(), health.zookeeperConnected(), coordination.isLeader(), o.pendingJobs(),
        o.pendingCoreSeconds(), o.allocatedCores(), o.totalCores(), o.reservationRatio(), broker.settings().exposureThreshold(),
        broker.participation(), broker.pilotsByState(), coordination.jobs(broker.settings().site()).size(), broker.decisions().counts());
  }

  /** Alive: its rounds run (one began within {@link Broker#ROUND_STALLED}). For a liveness probe; systemd's watchdog asks the same. */
  @GET
  @Path("v1/health/live")
  public Response live() {
    Map<String, String> checks = new LinkedHashMap<>();
    boolean ok = broker.alive();
    checks.put("rounds", broker.sinceLastRound().map(d -> "last began " + seconds(d) + " s ago" + (ok ? "" : ": stalled (over "
        + Broker.ROUND_STALLED.toSeconds() + " s)")).orElse("starting"));
    return health(ok, checks);
  }

  /** Ready: joined, its ZooKeeper session connected, its batch system answering. For a readiness probe or systemd's READY. */
  @GET
  @Path("v1/health/ready")
  public Response ready() {
    Map<String, String> checks = new LinkedHashMap<>();
    boolean joined = broker.joined();
    boolean zk = health.zookeeperConnected();
    BatchHealth b = broker.batchHealth();
    checks.put("federation", joined ? "joined" : "not joined yet");
    checks.put("zookeeper", zk ? "connected" : "disconnected");
    checks.put("batchSystem", (b.up() ? "up" : "down" + b.problem().map(p -> " (" + p + ")").orElse(""))
        + b.age().map(a -> ", last observed " + seconds(a) + " s ago").orElse(", never observed"));
    return health(joined && zk && b.up(), checks);
  }

  private static Response health(boolean ok, Map<String, String> checks) {
    return Response.status(ok ? 200 : 503).type(MediaType.APPLICATION_JSON).entity(new Health(ok, checks)).build();
  }

  private static String seconds(Duration d) {
    return Numbers.format(d.toMillis() / 1000.0);
  }

  /** Whether this site drains, and the foreign jobs still running here. */
  @GET
  @Path("v1/drain")
  public Drain draining() {
    return new Drain(broker.settings().site(), broker.draining(), broker.foreignRunning());
  }

  /** Starts draining (operators): no more foreign work; the daemon exits once the foreign jobs running here have ended. */
  @POST
  @Path("v1/drain")
  public Drain drain() {
    broker.drain();
    return draining();
  }

  @GET
  @Path("v1/sites")
  public Federation sites() {
    Map<String, SiteStatus> live = coordination.liveSites();
    Map<String, SiteInfo> known = coordination.knownSites();
    Allowances a = coordination.allowances();
    List<SiteView> out = new ArrayList<>();
    for (String site : new TreeSet<>(known.keySet())) {
      SiteStatus s = live.get(site);
      SiteInfo info = known.get(site);
      Allowances.Allowance al = a.of(site);
      // a member's node is made with the federation; its daemon fills in its address and cores when it first joins
      String absent = info.endpoint() == null || info.endpoint().isEmpty() ? SiteView.NEVER_JOINED : SiteView.GONE;
      out.add(s == null
          ? new SiteView(site, absent, false, info.endpoint(), info.cores(), 0, 0, 0, 0, 0, 0)
          : new SiteView(site, SiteView.LIVE, true, info.endpoint(), s.cores(), s.queueCoreSeconds(), s.queuedJobs(), s.reservationRatio(),
              s.participation(), al.send(), al.receive()));
    }
    return new Federation(a.leader(), a.period(), out);
  }

  @GET
  @Path("v1/ledger")
  public Ledger ledger() {
    double now = coordination.now();
    var u = broker.settings().utility();
    List<LedgerRow> rows = new ArrayList<>();
    for (Map.Entry<String, SiteLedger> e : new TreeMap<>(coordination.ledgers()).entrySet()) {
      SiteLedger l = e.getValue();
      rows.add(new LedgerRow(e.getKey(), l.contribution().get(u).at(now), l.utility().get(u).at(now), l.priority(u, now), l.jobsExecuted(),
          l.jobsSubmitted()));
    }
    return new Ledger(u.name(), now, rows);
  }

  /** The dashboard: a page that reads this API ({@link DashboardResource}). */
  @GET
  @Produces(MediaType.TEXT_HTML)
  public Response dashboard() throws IOException {
    return DashboardResource.page();
  }

  @GET
  @Path("v1/flows")
  public Flows flows() {
    double now = coordination.now();
    var u = broker.settings().utility();
    List<Flow> flows = new ArrayList<>();
    for (var row : new TreeMap<>(coordination.ledgerRows()).entrySet()) {
      new TreeMap<>(row.getValue().credits()).forEach((executor, credit) -> flows.add(new Flow(row.getKey(), executor, credit.jobs(),
          credit.sums().get(u).at(now))));
    }
    return new Flows(u.name(), now, flows);
  }

  @GET
  @Path("v1/decisions")
  public RecentDecisions decisions() {
    List<DecisionView> out = new ArrayList<>();
    broker.decisions().recent().forEach(d -> out.add(new DecisionView(d.millis(), d.kind(), d.subject(), d.reason(), d.detail())));
    return new RecentDecisions(broker.settings().site(), out);
  }

  @GET
  @Path("v1/jobs/{id}")
  public JobView job(@PathParam("id") String id) {
    JobSpec.requireId("job id", id);
    String site = broker.settings().site();
    for (FederatedJob f : coordination.jobs(site)) {
      if (f.job().jobId().equals(id)) {
        String state = f.finished() ? "finished" : f.claimed() ? "running" : "queued";
        return new JobView(site, id, state, f.executor(), f.job().release(), null, null, null, null, null);
      }
    }
    Optional<FinishedJob> done = broker.finished(id);
    if (done.isPresent()) {
      FinishedJob d = done.get();
      return new JobView(site, id, d.outcome(), d.executor(), d.release(), d.start(), d.end(), d.exitCode(),
          d.signal() == 0 ? null : d.signal(), d.timedOut() ? Boolean.TRUE : null, null, d.outOfMemory() ? Boolean.TRUE : null);
    }
    Optional<String> home = broker.whyHome(id);
    if (home.isPresent()) {
      return new JobView(site, id, "home", "", 0, null, null, null, null, null, home.get(), null);
    }
    throw new ApiError(ApiError.Code.NOT_FOUND, "site " + site + " has no federated job " + id
        + " (never published, run at home, or finished before the daemon's last " + "10,000 jobs)");
  }

  @GET
  @Path("v1/participation")
  public Participation participation() {
    return new Participation(broker.settings().site(), broker.participation(), broker.participationSetAt().map(Object::toString).orElse(null));
  }

  @PUT
  @Path("v1/participation")
  @Consumes(MediaType.APPLICATION_JSON)
  public Participation setParticipation(ParticipationChange change) {
    if (change == null || change.level() == null) {
      throw new ApiError(ApiError.Code.INVALID, "send {\"level\": N}, N the participation level in core-seconds per period");
    }
    broker.setParticipation(change.level());
    return participation();
  }

  @GET
  @Path("v1/contracts")
  public Contracts contracts() {
    return new Contracts(broker.settings().site(), contractBook().around().stream().map(this::view).toList());
  }

  /** One of the site's contracts, of any day the market still keeps; 404 for an id that is not this site's. */
  @GET
  @Path("v1/contracts/{id}")
  public ContractView contract(@PathParam("id") String id) {
    return view(contractBook().find(id).orElseThrow(() -> new ApiError(ApiError.Code.NOT_FOUND, "site " + broker.settings().site()
        + " has no contract " + id + " (coalition contracts list shows them)")));
  }

  /** The admin's acknowledgement of a contract the site file holds for approval (operators). */
  @POST
  @Path("v1/contracts/{id}/acknowledge")
  public ContractView acknowledge(@PathParam("id") String id) {
    try {
      return view(contractBook().acknowledge(id));
    } catch (ContractBook.Refused e) {
      throw new ApiError(e.unknown() ? ApiError.Code.NOT_FOUND : ApiError.Code.CONFLICT, e.getMessage());
    }
  }

  private ContractBook contractBook() {
    return new ContractBook(coordination, broker.decisions(), Clock.systemUTC());
  }

  private ContractView view(ContractBook.Entry e) {
    Instant start = Instant.ofEpochSecond(e.terms().slotStart());
    return new ContractView(e.terms().id(), start.toString(), start.plus(coordination.market().calendar().slot()).toString(),
        e.terms().blockType(), e.buying() ? "buy" : "sell", e.counterparty(), e.price(),
        ContractLifecycle.PREPAID_RATIO * e.terms().sellPrice(), e.own().name(), e.theirs().name(), e.reservation());
  }

  // --- metrics and the document ----------------------------------------------------------

  @GET
  @Path("metrics")
  @Produces("text/plain; version=0.0.4; charset=utf-8")
  public String metrics() {
    return metrics.scrape();
  }

  @GET
  @Path("openapi.yaml")
  @Produces("application/yaml")
  public String openapi() throws IOException {
    try (var in = SiteResource.class.getResourceAsStream("/openapi.yaml")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
