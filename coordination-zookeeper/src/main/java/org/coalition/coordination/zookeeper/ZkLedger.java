package org.coalition.coordination.zookeeper;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.coalition.coordination.Completed;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.CoordinationException.Kind;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.SiteLedger;
import org.coalition.coordination.UtilitySums;
import org.coalition.coordination.zookeeper.ZkRecords.DoneRecord;
import org.coalition.coordination.zookeeper.ZkRecords.ResultRecord;

/**
 * This site's ledger: acknowledged results fold into its utility (it sent them), its own
 * finished-run records into its contribution (it ran them). Both go through {@link #fold}: the
 * ledger and the nodes folded into it change in one multi checked against the ledger's version,
 * so nothing is counted twice or lost; a moved ledger is read again.
 */
final class ZkLedger {
  private static final int BATCH = 100;

  private final ZkSite zk;

  ZkLedger(ZkSite zk) {
    this.zk = zk;
  }

  /** Every site's ledger, by site. */
  Map<String, SiteLedger> ledgers() {
    return zk.readAll(zk.paths.ledgers(), SiteLedger.class);
  }

  /** Folds results of this site's jobs into its ledger and deletes them with their claims and jobs; returns how many. */
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
      out.add(new Entry(ledger -> ledger.submitted(sums), List.of(zk.paths.result(ref), zk.paths.claim(ref), zk.paths.job(ref))));
    }
    return out;
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

  /** Folds this site's finished-run records into its ledger and deletes them; returns how many. */
  int compact() {
    int folded = 0;
    try {
      List<String> names = new ArrayList<>(zk.client.getChildren().forPath(zk.paths.doneOf(zk.site)));
      names.sort(null);
      for (int from = 0; from < names.size(); from += BATCH) {
        List<String> batch = names.subList(from, Math.min(names.size(), from + BATCH));
        folded += fold("compacting the ledger of " + zk.site, again -> records(batch));
      }
    } catch (Exception e) {
      throw ZkSite.translate("compacting the ledger of " + zk.site, e);
    }
    return folded;
  }

  /** The finished-run records of {@code batch} still there. */
  private List<Entry> records(List<String> batch) throws Exception {
    List<Entry> out = new ArrayList<>();
    for (String name : batch) {
      String path = zk.paths.doneOf(zk.site) + "/" + name;
      byte[] data;
      try {
        data = zk.client.getData().forPath(path);
      } catch (KeeperException.NoNodeException e) {
        continue;
      }
      DoneRecord d = ZkRecords.read(path, data, DoneRecord.class);
      UtilitySums sums = UtilitySums.of(d.release(), d.run(), d.cores());
      out.add(new Entry(ledger -> ledger.executed(sums), List.of(path)));
    }
    return out;
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

  /** One thing to fold: how it changes the ledger, and the nodes deleted with it. */
  private record Entry(UnaryOperator<SiteLedger> fold, List<String> deletes) {}

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
        SiteLedger ledger = ZkRecords.read(ledgerPath, ledgerData(ledgerPath, stat), SiteLedger.class);
        List<CuratorOp> ops = new ArrayList<>();
        for (Entry e : entries) {
          ledger = e.fold().apply(ledger);
          for (String path : e.deletes()) {
            ops.add(zk.client.transactionOp().delete().forPath(path));
          }
        }
        ops.add(0, zk.client.transactionOp().setData().withVersion(stat.getVersion()).forPath(ledgerPath, ZkRecords.write(ledger)));
        zk.client.transaction().forOperations(ops);
        return entries.size();
      } catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
        again = true; // the ledger moved, or a node went meanwhile: read again
      } catch (Exception e) {
        throw ZkSite.translate(what, e);
      }
    }
  }
}
