package org.coalition.coordination.zookeeper;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.coalition.coordination.Completed;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.CoordinationException.Kind;
import org.coalition.coordination.Credit;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.LedgerRow;
import org.coalition.coordination.Ledgers;
import org.coalition.coordination.SiteLedger;
import org.coalition.coordination.UtilitySums;
import org.coalition.coordination.zookeeper.ZkRecords.ResultRecord;

/**
 * The federation's ledger: each home's row ({@link LedgerRow}) credits the executors of the
 * results it acknowledged, and the sites its contract notes paid ({@link #pay}). The row and the
 * acknowledged nodes, or the note, change in one multi checked against the row's version
 * ({@link #fold}), so nothing is counted twice or lost; a moved row is read
 * again. Rows are peers' writes: a row that cannot be read, names another home, or goes back on a
 * credit this daemon has seen is not believed, and the credits seen before stand ({@link #believed}, counted in
 * {@link PeerRecords}).
 */
final class ZkLedger {
  private static final int BATCH = 100;

  private final ZkSite zk;
  private final Map<String, LedgerRow> seen = new HashMap<>();

  ZkLedger(ZkSite zk) {
    this.zk = zk;
  }

  /** Every member's ledger, by site, from the homes' rows. */
  Map<String, SiteLedger> ledgers() {
    Map<String, LedgerRow> rows = rows();
    return Ledgers.of(rows.values(), rows.keySet());
  }

  /** The homes' rows this daemon believes, by home. */
  Map<String, LedgerRow> rows() {
    List<String> members;
    try {
      members = zk.client.getChildren().forPath(zk.paths.ledgers());
    } catch (Exception e) {
      throw ZkSite.translate("reading the ledger's members", e);
    }
    Map<String, LedgerRow> believed = new TreeMap<>();
    for (String home : members) {
      believed.put(home, believed(home));
    }
    return believed;
  }

  /**
   * The row of {@code home} this daemon believes: per executor, a credit may only grow by new
   * runs (more jobs), and per payee a payment by new payments; one that shrank or changed without
   * a new run or payment, or a row that is unreadable or
   * names another home, keeps the credit seen before. What was not believed is one refusal of the
   * row, with every reason, so that a row that stays as it is is reported once.
   */
  private synchronized LedgerRow believed(String home) {
    LedgerRow before = seen.getOrDefault(home, LedgerRow.empty(home));
    String path = zk.paths.ledger(home);
    LedgerRow read;
    try {
      read = ZkRecords.read(path, zk.client.getData().forPath(path), LedgerRow.class);
    } catch (KeeperException.NoNodeException e) {
      return before;
    } catch (CoordinationException e) {
      zk.peerRecords.refuse("LedgerRow", path, e.getMessage() + "; the credits seen before stand");
      return before;
    } catch (Exception e) {
      throw ZkSite.translate("reading the ledger row of " + home, e);
    }
    if (!read.home().equals(home)) {
      zk.peerRecords.refuse("LedgerRow", path, "it names home " + read.home() + "; the credits seen before stand");
      return before;
    }
    List<String> doubts = new ArrayList<>();
    Map<String, Credit> credits = held(before.credits(), read.credits(), "credit to", "runs", doubts);
    Map<String, Credit> paid = held(before.paid(), read.paid(), "payment to", "payments", doubts);
    if (doubts.isEmpty()) {
      zk.peerRecords.accepted(path);
    } else {
      zk.peerRecords.refuse("LedgerRow", path, String.join("; ", doubts) + "; the credits seen before stand");
    }
    LedgerRow row = new LedgerRow(home, credits, paid);
    seen.put(home, row);
    return row;
  }

  /** {@code read}'s credits, each kept as {@code before} where it went back or changed without one more run or payment. */
  private static Map<String, Credit> held(Map<String, Credit> before, Map<String, Credit> read, String what, String counted,
      List<String> doubts) {
    Map<String, Credit> credits = new TreeMap<>(read);
    for (Map.Entry<String, Credit> e : before.entrySet()) {
      Credit now = credits.get(e.getKey());
      Credit was = e.getValue();
      if (now == null || now.jobs() < was.jobs() || now.jobs() == was.jobs() && !now.equals(was)) {
        doubts.add("its " + what + " " + e.getKey() + " went back from " + was.jobs() + " to " + (now == null ? 0 : now.jobs())
            + " " + counted + ", or changed without a new one");
        credits.put(e.getKey(), was);
      }
    }
    return credits;
  }

  /** Credits the executors of this home's results in its row and deletes the results with their claims and jobs; returns how many. */
  int acknowledge(List<Completed> done) {
    for (Completed c : done) {
      zk.requireOwn(c.job().home());
    }
    int folded = 0;
    for (int from = 0; from < done.size(); from += BATCH) {
      List<Completed> batch = done.subList(from, Math.min(done.size(), from + BATCH));
      // first as results() just read them (the multi fails if one is gone), then each checked
      folded += fold("acknowledging results of " + zk.site, again -> again ? stillThere(batch) : entries(batch));
    }
    return folded;
  }

  private List<Entry> entries(List<Completed> batch) {
    List<Entry> out = new ArrayList<>();
    for (Completed c : batch) {
      JobRef ref = c.job().ref();
      UtilitySums sums = UtilitySums.of(c.job().release(), c.result(), c.job().cores());
      out.add(new Entry(row -> row.accepted(c.executor(), sums), List.of(zk.paths.result(ref), zk.paths.claim(ref), zk.paths.job(ref)),
          null));
    }
    return out;
  }

  /**
   * Pays {@code payment} to {@code payee} from this site's row and creates the node at
   * {@code path} (the contract note that owes it) in one multi, so a payment is made exactly when
   * its note is written; false, nothing paid, when the node is there already (written by an
   * earlier try, with its payment).
   */
  boolean pay(String payee, UtilitySums payment, String path, byte[] data, List<ACL> acl) {
    JobSpec.requireId("payee", payee);
    try {
      fold("paying " + payee + " with " + path, again -> {
        if (again && zk.client.checkExists().forPath(ZKPaths.getPathAndNode(path).getPath()) == null) {
          throw new CoordinationException(Kind.INVALID, "the folder of " + path + " is gone; its day was deleted");
        }
        return List.of(new Entry(row -> row.paid(payee, payment), List.of(), new Create(path, data, acl)));
      });
      return true;
    } catch (NodeThere e) {
      return false;
    }
  }

  /** A node to create with the fold. */
  private record Create(String path, byte[] data, List<ACL> acl) {}

  /** The fold's node to create was there already. */
  private static final class NodeThere extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NodeThere() {
      super(null, null, false, false);
    }
  }

  /** The results of {@code batch} still there with the same claim's token. */
  private List<Entry> stillThere(List<Completed> batch) throws Exception {
    List<Completed> pending = new ArrayList<>();
    for (Completed c : batch) {
      String path = zk.paths.result(c.job().ref());
      if (zk.client.checkExists().forPath(path) != null
          && ZkRecords.read(path, zk.client.getData().forPath(path), ResultRecord.class).token() == c.token()) {
        pending.add(c);
      }
    }
    return entries(pending);
  }

  /** The ledger node's data; its absence is a broken tree, not a race to retry. */
  private byte[] ledgerData(String ledgerPath, Stat stat) throws Exception {
    try {
      return zk.client.getData().storingStatIn(stat).forPath(ledgerPath);
    } catch (KeeperException.NoNodeException e) {
      throw new CoordinationException(Kind.INTERNAL, "the ledger of " + zk.site + " is missing at " + ledgerPath
          + "; the operator's bootstrap creates it");
    }
  }

  /** One thing to fold: how it changes the ledger, the nodes deleted with it, and the node created with it (or null). */
  private record Entry(UnaryOperator<LedgerRow> fold, List<String> deletes, Create create) {}

  /** Reads what to fold; {@code again} after the ledger or a node moved under the last attempt. */
  @FunctionalInterface
  private interface Reader {
    List<Entry> read(boolean again) throws Exception;
  }

  /**
   * The one fold: reads the ledger with its version, applies every entry, and writes the ledger
   * and deletes the entries' nodes in one multi; when the ledger or a node moved meanwhile, reads
   * again. Returns how many entries were folded.
   */
  private int fold(String what, Reader reader) {
    String ledgerPath = zk.paths.ledger(zk.site);
    boolean again = false;
    while (true) {
      try {
        List<Entry> entries = reader.read(again);
        if (entries.isEmpty()) {
          return 0;
        }
        Stat stat = new Stat();
        LedgerRow ledger = ZkRecords.read(ledgerPath, ledgerData(ledgerPath, stat), LedgerRow.class);
        List<CuratorOp> ops = new ArrayList<>();
        for (Entry e : entries) {
          ledger = e.fold().apply(ledger);
          for (String path : e.deletes()) {
            ops.add(zk.client.transactionOp().delete().forPath(path));
          }
          if (e.create() != null) {
            ops.add(zk.client.transactionOp().create().withACL(e.create().acl()).forPath(e.create().path(), e.create().data()));
          }
        }
        ops.add(0, zk.client.transactionOp().setData().withVersion(stat.getVersion()).forPath(ledgerPath, ZkRecords.write(ledger)));
        zk.client.transaction().forOperations(ops);
        return entries.size();
      } catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
        again = true; // the ledger moved, or a node went meanwhile: read again
      } catch (KeeperException.NodeExistsException e) {
        throw new NodeThere();
      } catch (CoordinationException e) {
        throw e;
      } catch (Exception e) {
        throw ZkSite.translate(what, e);
      }
    }
  }
}
