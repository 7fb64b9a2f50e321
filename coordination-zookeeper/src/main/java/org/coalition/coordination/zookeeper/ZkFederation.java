package org.coalition.coordination.zookeeper;

import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.SessionConnectionStateErrorPolicy;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.coalition.coordination.Allowances;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.CoordinationException.Kind;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.LedgerRow;
import org.coalition.coordination.SiteInfo;
import org.coalition.coordination.zookeeper.ZkRecords.CalendarRecord;
import org.coalition.coordination.zookeeper.ZkRecords.FederationRecord;
import org.coalition.policy.contracts.MarketCalendar;
import org.coalition.zookeeper.policy.FederationAcls;
import org.coalition.zookeeper.policy.Identity;

/**
 * Creating a federation's tree (the operator's job, once, and again to add sites) and connecting
 * a site to it. Every party connects over TLS with its federation identity ({@link ZkTls}); the
 * tree's ACLs are {@link FederationAcls}', which the servers' {@code FederationAclProvider} enforces.
 */
public final class ZkFederation {
  public static final String OPERATOR = Identity.OPERATOR;

  private ZkFederation() {}

  /**
   * Connection settings for one site's handle, and how it holds other members to the protocol as
   * a home: a claim on one of its jobs that is not renewed for {@code claimLease} (heartbeats
   * renew it) goes back to the queue even while its claimer's session lives, and no member holds
   * more than {@code maxClaimsPerMember} of its jobs at once (the newest claims past the cap go
   * back). docs/security.md explains both. A claim whose claimer's session ended is kept for
   * {@code restartGrace}, for the claimer's restarted daemon to adopt ({@code Coordination.adopt}),
   * then goes back (docs/decisions/0011-durable-work.md).
   */
  public record Options(Duration sessionTimeout, Duration connectTimeout, Duration claimLease, int maxClaimsPerMember, Duration restartGrace) {
    public static final Duration CLAIM_LEASE = Duration.ofMinutes(5);
    public static final int MAX_CLAIMS_PER_MEMBER = 256;
    /**
     * How long a client waits for its first connection: the daemon's, the operator's commands' and
     * {@code config check --online}'s alike. A first TLS handshake in a cold JVM on a loaded host
     * took longer than 10 s (the guide's {@code federation list} in PackageIT, beside the container tier).
     */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(20);
    public static final Options DEFAULT = new Options(Duration.ofSeconds(15), CONNECT_TIMEOUT);

    public Options(Duration sessionTimeout, Duration connectTimeout) {
      this(sessionTimeout, connectTimeout, CLAIM_LEASE, MAX_CLAIMS_PER_MEMBER);
    }

    /** No restart grace: a claim whose executor's session ended goes back at once (tests, benchmarks; the daemon takes the site file's). */
    public Options(Duration sessionTimeout, Duration connectTimeout, Duration claimLease, int maxClaimsPerMember) {
      this(sessionTimeout, connectTimeout, claimLease, maxClaimsPerMember, Duration.ZERO);
    }
  }

  /** {@link #bootstrap(String, ZkTls, Collection, MemberQuota, Clock)} with each site's quota {@link MemberQuota#DEFAULT}. */
  public static void bootstrap(String connectString, ZkTls operator, Collection<String> sites, Clock clock) {
    bootstrap(connectString, operator, sites, MemberQuota.DEFAULT, clock);
  }

  /**
   * Creates (or completes) the tree of the federation {@code operator} is the operator of, with
   * one subtree per site of {@code sites}, each writable only by that site's identity, and sets
   * each of them {@code quota} on the servers. Idempotent: existing nodes are kept, new sites are
   * added to the member list; the quota of each site named is set again.
   */
  public static void bootstrap(String connectString, ZkTls operator, Collection<String> sites, MemberQuota quota, Clock clock) {
    Identity self = operatorOf(operator, "creates its tree");
    String federation = self.federation();
    ZkPaths paths = new ZkPaths(federation);
    try (CuratorFramework admin = client(connectString, operator, Options.DEFAULT)) {
      Map<String, String> members = new TreeMap<>();
      for (String site : sites) {
        JobSpec.requireId("site", site);
        if (site.equals(OPERATOR)) {
          throw new CoordinationException(Kind.INVALID, "'" + OPERATOR + "' names the operator; a site needs another name");
        }
        members.put(site, new Identity(federation, site).toString());
      }
      List<ACL> operatorOnly = FederationAcls.operatorOnly(federation);
      closeToMembers(admin, "/");
      ZkQuotas.closeToMembers(admin);
      ensure(admin, "/coalition", new byte[0], FederationAcls.shared(federation));
      Stat stat = new Stat();
      if (admin.checkExists().forPath(paths.root) == null) {
        ensure(admin, paths.root, ZkRecords.write(new FederationRecord(clock.millis(), members)), operatorOnly);
      } else {
        FederationRecord existing = ZkRecords.read(paths.root, admin.getData().storingStatIn(stat).forPath(paths.root), FederationRecord.class);
        Map<String, String> merged = new TreeMap<>(existing.members());
        merged.putAll(members);
        admin.setData().withVersion(stat.getVersion())
            .forPath(paths.root, ZkRecords.write(new FederationRecord(existing.epochMillis(), merged)));
      }
      for (String branch : List.of(paths.sites(), paths.jobs(), paths.ledgers(), paths.allowances())) {
        ensure(admin, branch, new byte[0], operatorOnly);
      }
      ensure(admin, paths.market(), ZkRecords.write(CalendarRecord.of(MarketCalendar.DEFAULT)), operatorOnly);
      retire(admin, paths.root + "/leader");
      retire(admin, paths.retiredDone());
      for (String site : members.keySet()) {
        List<ACL> own = FederationAcls.own(new Identity(federation, site));
        ensure(admin, paths.site(site), ZkRecords.write(new SiteInfo(site, "", 0)), own);
        ensure(admin, paths.jobsOf(site), new byte[0], own);
        ensure(admin, paths.marketOf(site), new byte[0], own);
        ZkQuotas.set(admin, paths, federation, site, quota);
        ensure(admin, paths.ledger(site), ZkRecords.write(LedgerRow.empty(site)), own);
        retireSelfReportedLedger(admin, paths.ledger(site), site);
        ensure(admin, paths.allowances(site), ZkRecords.write(Allowances.NONE), own);
      }
    } catch (CoordinationException e) {
      throw e;
    } catch (Exception e) {
      throw ZkSite.translate("bootstrap of federation " + federation + " at " + connectString, e);
    }
  }

  /**
   * Sets the federation's market calendar ({@link MarketCalendar}: the gate, the reveal window and
   * the slot length every member judges bids by) on its {@code market} node, which only the operator
   * writes. Change it between days' markets: a day whose gate has passed is judged anew by it.
   */
  public static void setMarketCalendar(String connectString, ZkTls operator, MarketCalendar calendar) {
    Identity self = operatorOf(operator, "sets the market's calendar");
    ZkPaths paths = new ZkPaths(self.federation());
    try (CuratorFramework admin = client(connectString, operator, Options.DEFAULT)) {
      record(admin, self.federation(), connectString);
      byte[] data = ZkRecords.write(CalendarRecord.of(calendar));
      try {
        admin.setData().forPath(paths.market(), data);
      } catch (KeeperException.NoNodeException e) {
        admin.create().withACL(FederationAcls.operatorOnly(self.federation())).forPath(paths.market(), data);
      }
    } catch (CoordinationException e) {
      throw e;
    } catch (Exception e) {
      throw ZkSite.translate("setting the market calendar of federation " + self.federation() + " at " + connectString, e);
    }
  }

  /**
   * Deletes every member's market records of the days before {@code day} (members cannot: their
   * records are written once, {@link FederationAcls#sealed}); returns how many day folders went.
   * The operator runs it from time to time (`coalition federation market --forget-before DAY`), so
   * that the members' market quotas do not fill.
   */
  public static int forgetMarketBefore(String connectString, ZkTls operator, LocalDate day) {
    Identity self = operatorOf(operator, "deletes past markets");
    ZkPaths paths = new ZkPaths(self.federation());
    int gone = 0;
    try (CuratorFramework admin = client(connectString, operator, Options.DEFAULT)) {
      record(admin, self.federation(), connectString);
      for (String member : admin.getChildren().forPath(paths.market())) {
        for (String child : admin.getChildren().forPath(paths.marketOf(member))) {
          if (ZkPaths.isDay(child) && LocalDate.parse(child).isBefore(day)) {
            admin.delete().deletingChildrenIfNeeded().forPath(paths.marketOf(member) + "/" + child);
            gone++;
          }
        }
      }
      return gone;
    } catch (CoordinationException e) {
      throw e;
    } catch (Exception e) {
      throw ZkSite.translate("deleting the markets before " + day + " of federation " + self.federation() + " at " + connectString, e);
    }
  }

  /** A member of a federation as its operator sees it: its site id, the identity its certificate must name, whether it is live now. */
  public record Member(String site, String identity, boolean live) {}

  /** The members of the federation {@code operator} runs, by site id, and which are live (their daemons' sessions hold their live nodes). */
  public static List<Member> members(String connectString, ZkTls operator) {
    Identity self = operatorOf(operator, "lists its members");
    ZkPaths paths = new ZkPaths(self.federation());
    try (CuratorFramework admin = client(connectString, operator, Options.DEFAULT)) {
      FederationRecord record = record(admin, self.federation(), connectString);
      List<Member> out = new ArrayList<>();
      for (Map.Entry<String, String> m : new TreeMap<>(record.members()).entrySet()) {
        out.add(new Member(m.getKey(), m.getValue(), admin.checkExists().forPath(paths.live(m.getKey())) != null));
      }
      return out;
    } catch (CoordinationException e) {
      throw e;
    } catch (Exception e) {
      throw ZkSite.translate("listing the members of federation " + self.federation() + " at " + connectString, e);
    }
  }

  /** The federation's record (its members), as the operator reads it; INVALID when there is no federation. */
  static FederationRecord record(CuratorFramework admin, String federation, String connectString) throws Exception {
    ZkPaths paths = new ZkPaths(federation);
    if (admin.checkExists().forPath(paths.root) == null) {
      throw new CoordinationException(Kind.INVALID, "no federation " + federation + " at " + connectString
          + "; the operator creates it with coalition federation create");
    }
    return ZkRecords.read(paths.root, admin.getData().forPath(paths.root), FederationRecord.class);
  }

  /** Who {@code operator} is, when it is the federation's operator; else FORBIDDEN: only the operator {@code does} this. */
  static Identity operatorOf(ZkTls operator, String does) {
    Identity self = operator.who();
    if (!self.isOperator()) {
      throw new CoordinationException(Kind.FORBIDDEN, "only the federation's operator " + does + "; this identity is " + self
          + " (the operator's certificate names CN=" + OPERATOR + ")");
    }
    return self;
  }

  /** Connects the site {@code tls} names to its federation; the operator must have added it. */
  public static ZkCoordination connect(String connectString, ZkTls tls, Clock clock, Options options) {
    Identity self = tls.who();
    if (self.isOperator()) {
      throw new CoordinationException(Kind.INVALID, "the operator's identity runs no site; a site connects with its own (coalition federation issue SITE)");
    }
    CuratorFramework client = client(connectString, tls, options);
    try {
      return new ZkCoordination(client, new ZkPaths(self.federation()), self, clock, options).start();
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
  }

  /** A started Curator client over TLS as {@code tls}'s identity, connected within the options' timeout. */
  static CuratorFramework client(String connectString, ZkTls tls, Options options) {
    Identity self = tls.who();
    CuratorFramework client = tls.curator(connectString)
        .sessionTimeoutMs((int) options.sessionTimeout().toMillis())
        // Curator's per-connection wait, which it wants no longer than the session (it warns
        // otherwise); the whole wait for a first connection is connectTimeout, below
        .connectionTimeoutMs((int) Math.min(options.connectTimeout().toMillis(), options.sessionTimeout().toMillis()))
        .retryPolicy(new ExponentialBackoffRetry(100, 10, 2_000))
        .aclProvider(new OwnNodesAclProvider(self))
        // A short disconnect (SUSPENDED) must not cost leadership; only a lost session does.
        .connectionStateErrorPolicy(new SessionConnectionStateErrorPolicy())
        .build();
    client.start();
    try {
      if (!client.blockUntilConnected((int) options.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
        client.close();
        Optional<String> why = new TlsProbe(tls).why(connectString);
        if (why.isPresent()) {
          throw new CoordinationException(Kind.UNAVAILABLE, "no ZooKeeper server took a connection at " + connectString + ": " + why.get());
        }
        throw new CoordinationException(Kind.UNAVAILABLE, "no ZooKeeper server answered over TLS at " + connectString + " within "
            + options.connectTimeout().toSeconds() + " s, though each takes a TLS connection; check that the ensemble has a quorum");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      client.close();
      throw new CoordinationException(Kind.UNAVAILABLE, "interrupted while connecting to " + connectString, e);
    }
    return client;
  }

  /**
   * Gives {@code path} the ACL of the ensemble's root, {@link FederationAcls#root} (docs/security.md):
   * operators create there, members only read. Another federation's operator may have done so already.
   */
  static void closeToMembers(CuratorFramework admin, String path) throws Exception {
    List<ACL> root = FederationAcls.root();
    if (!new HashSet<>(admin.getACL().forPath(path)).equals(new HashSet<>(root))) {
      admin.setACL().withACL(root).forPath(path);
    }
  }

  /**
   * Deletes a folder older federations had: the leader latch (every member could write it) and the
   * executors' own run records. Nothing reads them now; no one keeps a foothold there.
   */
  private static void retire(CuratorFramework admin, String path) throws Exception {
    try {
      admin.delete().deletingChildrenIfNeeded().forPath(path);
    } catch (KeeperException.NoNodeException e) {
      // a federation made since, or retired already
    }
  }

  /**
   * A ledger written before homes credited executors held each site's own claim of its
   * contribution, which no one can check: it is started again from an empty row.
   */
  private static void retireSelfReportedLedger(CuratorFramework admin, String path, String site) throws Exception {
    try {
      ZkRecords.read(path, admin.getData().forPath(path), LedgerRow.class);
    } catch (CoordinationException e) {
      admin.setData().forPath(path, ZkRecords.write(LedgerRow.empty(site)));
    }
  }

  static void ensure(CuratorFramework admin, String path, byte[] data, List<ACL> acl) throws Exception {
    try {
      admin.create().withACL(acl).forPath(path, data);
    } catch (KeeperException.NodeExistsException e) {
      // created by an earlier bootstrap: kept as it is
    }
  }
}
