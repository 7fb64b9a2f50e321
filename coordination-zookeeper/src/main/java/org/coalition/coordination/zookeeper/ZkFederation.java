package org.coalition.coordination.zookeeper;

import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.SessionConnectionStateErrorPolicy;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooDefs.Perms;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.coalition.coordination.Allowances;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.CoordinationException.Kind;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.SiteInfo;
import org.coalition.coordination.SiteLedger;
import org.coalition.coordination.zookeeper.ZkRecords.FederationRecord;

/**
 * Creating a federation's tree (the operator's job, once, and again to add sites) and connecting
 * a site to it. Identities are ZooKeeper digest identities: a site authenticates as
 * {@code SITE:SECRET}; the operator as {@code operator:SECRET}.
 */
public final class ZkFederation {
  public static final String OPERATOR = "operator";

  private ZkFederation() {}

  /**
   * Connection settings for one site's handle, and how it holds other members to the protocol as
   * a home: a claim on one of its jobs that is not renewed for {@code claimLease} (heartbeats
   * renew it) goes back to the queue even while its claimer's session lives, and no member holds
   * more than {@code maxClaimsPerMember} of its jobs at once (the newest claims past the cap go
   * back). docs/security.md explains both.
   */
  public record Options(Duration sessionTimeout, Duration connectTimeout, Duration claimLease, int maxClaimsPerMember) {
    public static final Duration CLAIM_LEASE = Duration.ofMinutes(5);
    public static final int MAX_CLAIMS_PER_MEMBER = 256;
    public static final Options DEFAULT = new Options(Duration.ofSeconds(15), Duration.ofSeconds(10));

    public Options(Duration sessionTimeout, Duration connectTimeout) {
      this(sessionTimeout, connectTimeout, CLAIM_LEASE, MAX_CLAIMS_PER_MEMBER);
    }
  }

  /**
   * Creates (or completes) federation {@code federation}'s tree with one subtree per site of
   * {@code siteSecrets}, each writable only by that site. Idempotent: existing nodes are kept,
   * new sites are added to the member list.
   */
  public static void bootstrap(String connectString, String federation, String operatorSecret, Map<String, String> siteSecrets, Clock clock) {
    JobSpec.requireId("federation", federation);
    ZkPaths paths = new ZkPaths(federation);
    try (CuratorFramework admin = client(connectString, OPERATOR, operatorSecret, Options.DEFAULT)) {
      Id operator = digest(OPERATOR, operatorSecret);
      Map<String, String> members = new TreeMap<>();
      siteSecrets.forEach((site, secret) -> members.put(JobSpec.requireId("site", site), digest(site, secret).getId()));
      List<ACL> operatorOnly = new ArrayList<>(List.of(new ACL(Perms.ALL, operator), new ACL(Perms.READ, Ids.ANYONE_ID_UNSAFE)));
      ensure(admin, "/coalition", new byte[0], operatorOnly);
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
      for (String branch : List.of(paths.sites(), paths.jobs(), paths.done(), paths.ledgers(), paths.allowances())) {
        ensure(admin, branch, new byte[0], operatorOnly);
      }
      retireLeaderLatch(admin, paths);
      for (Map.Entry<String, String> m : members.entrySet()) {
        String site = m.getKey();
        List<ACL> own = new ArrayList<>(List.of(
            new ACL(Perms.ALL, new Id("digest", m.getValue())), new ACL(Perms.ALL, operator), new ACL(Perms.READ, Ids.ANYONE_ID_UNSAFE)));
        ensure(admin, paths.site(site), ZkRecords.write(new SiteInfo(site, "", 0)), own);
        ensure(admin, paths.jobsOf(site), new byte[0], own);
        ensure(admin, paths.doneOf(site), new byte[0], own);
        ensure(admin, paths.ledger(site), ZkRecords.write(SiteLedger.empty(site)), own);
        ensure(admin, paths.allowances(site), ZkRecords.write(Allowances.NONE), own);
      }
    } catch (CoordinationException e) {
      throw e;
    } catch (Exception e) {
      throw ZkSite.translate("bootstrap of federation " + federation + " at " + connectString, e);
    }
  }

  /** Connects {@code site} to the federation; it must have been bootstrapped with this site's secret. */
  public static ZkCoordination connect(String connectString, String federation, String site, String secret, Clock clock, Options options) {
    JobSpec.requireId("site", site);
    CuratorFramework client = client(connectString, site, secret, options);
    try {
      return new ZkCoordination(client, new ZkPaths(federation), site, digest(site, secret), clock, options).start();
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
  }

  /** A started Curator client authenticated as {@code user}, connected within the options' timeout. */
  static CuratorFramework client(String connectString, String user, String secret, Options options) {
    Id self = digest(user, secret);
    CuratorFramework client = CuratorFrameworkFactory.builder()
        .connectString(connectString)
        .sessionTimeoutMs((int) options.sessionTimeout().toMillis())
        .connectionTimeoutMs((int) options.connectTimeout().toMillis())
        .retryPolicy(new ExponentialBackoffRetry(100, 10, 2_000))
        .authorization("digest", (user + ":" + secret).getBytes(StandardCharsets.UTF_8))
        .aclProvider(new OwnNodesAclProvider(self))
        // A short disconnect (SUSPENDED) must not cost leadership; only a lost session does.
        .connectionStateErrorPolicy(new SessionConnectionStateErrorPolicy())
        .build();
    client.start();
    try {
      if (!client.blockUntilConnected((int) options.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
        client.close();
        throw new CoordinationException(Kind.UNAVAILABLE, "no ZooKeeper server answered at " + connectString + " within "
            + options.connectTimeout().toSeconds() + " s; check the connect string and that the ensemble has a quorum");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      client.close();
      throw new CoordinationException(Kind.UNAVAILABLE, "interrupted while connecting to " + connectString, e);
    }
    return client;
  }

  static Id digest(String user, String secret) {
    if (secret == null || secret.length() < 8) {
      throw new CoordinationException(Kind.INVALID, "the secret of " + user + " must have at least 8 characters");
    }
    try {
      return new Id("digest", DigestAuthenticationProvider.generateDigest(user + ":" + secret));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is not available", e);
    }
  }

  /**
   * Federations made before leadership followed the live nodes have a {@code leader} folder that
   * every member could write. Nothing reads it now; the operator deletes it so no one keeps a foothold there.
   */
  private static void retireLeaderLatch(CuratorFramework admin, ZkPaths paths) throws Exception {
    try {
      admin.delete().deletingChildrenIfNeeded().forPath(paths.root + "/leader");
    } catch (KeeperException.NoNodeException e) {
      // a federation made since, or retired already
    }
  }

  private static void ensure(CuratorFramework admin, String path, byte[] data, List<ACL> acl) throws Exception {
    try {
      admin.create().withACL(acl).forPath(path, data);
    } catch (KeeperException.NodeExistsException e) {
      // created by an earlier bootstrap: kept as it is
    }
  }
}
