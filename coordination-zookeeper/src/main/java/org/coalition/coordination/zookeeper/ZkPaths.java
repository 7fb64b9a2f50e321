package org.coalition.coordination.zookeeper;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;
import org.coalition.coordination.JobRef;

/**
 * The federation's tree in ZooKeeper (docs/coordination.md draws it with its ACLs). Every site
 * has its own subtree under each branch, so an ACL per site is enough to keep sites' writes apart.
 *
 * <pre>
 * /coalition/FED                         {epochMillis, members}        operator writes
 *   sites/SITE                           SiteInfo (persistent)         SITE writes
 *   sites/SITE/live                      SiteStatus (ephemeral)        SITE's session
 *   jobs/HOME/JOB                        JobSpec                       HOME writes; members may add children
 *   jobs/HOME/JOB/claim                  ClaimRecord                   the claimer writes; HOME may delete
 *   jobs/HOME/JOB/claim/result           ResultRecord                  only the claimer can create; HOME may delete
 *   ledger/SITE                          LedgerRow (what SITE accepted) SITE writes (versioned)
 *   allowances/SITE                      Allowances                    SITE writes while leader
 *   market                               CalendarRecord                operator writes
 *   market/SITE/DAY/SLOT.TYPE.commit     CommitRecord                  SITE writes (before the gate)
 *   market/SITE/DAY/SLOT.TYPE.reveal     RevealRecord                  SITE writes (after the gate)
 *   market/SITE/DAY/clearing             ClearingRecord                SITE writes (when it leads)
 *   market/SITE/DAY/contract.ID.PHASE    ContractNote                  SITE writes (a party of contract ID), once a phase
 *   (every market record is written once: FederationAcls.sealed)
 * </pre>
 *
 * <p>The leader is the live site whose live node is the oldest; no node names it.
 */
final class ZkPaths {
  static final String CLAIM = "claim";
  static final String RESULT = "result";
  static final String LIVE = "live";
  private static final Pattern DAY = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");

  final String root;

  ZkPaths(String federation) {
    this.root = "/coalition/" + federation;
  }

  String sites() {
    return root + "/sites";
  }

  String site(String site) {
    return sites() + "/" + site;
  }

  String live(String site) {
    return site(site) + "/" + LIVE;
  }

  String jobs() {
    return root + "/jobs";
  }

  String jobsOf(String home) {
    return jobs() + "/" + home;
  }

  String job(JobRef ref) {
    return jobsOf(ref.home()) + "/" + ref.jobId();
  }

  String claim(JobRef ref) {
    return job(ref) + "/" + CLAIM;
  }

  String result(JobRef ref) {
    return claim(ref) + "/" + RESULT;
  }

  /** Where executors kept their own run records before contribution was credited by the homes; bootstrap deletes it. */
  String retiredDone() {
    return root + "/done";
  }

  String ledgers() {
    return root + "/ledger";
  }

  String ledger(String site) {
    return ledgers() + "/" + site;
  }

  String allowances() {
    return root + "/allowances";
  }

  String allowances(String site) {
    return allowances() + "/" + site;
  }

  String market() {
    return root + "/market";
  }

  /** {@code site}'s market folder, the operator's; its days and records are the site's, under a quota of their own. */
  String marketOf(String site) {
    return market() + "/" + site;
  }

  String marketDay(String site, LocalDate day) {
    return marketOf(site) + "/" + day;
  }

  String marketNode(String site, LocalDate day, String name) {
    return marketDay(site, day) + "/" + name;
  }

  /** Whether {@code name} is a day folder's name (ISO, 2026-12-02; a member may make other names, which no reader takes). */
  static boolean isDay(String name) {
    if (!DAY.matcher(name).matches()) {
      return false;
    }
    try {
      LocalDate.parse(name);
      return true;
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  /** The path's segments under the root ("jobs", HOME, JOB, ...), or an empty array if outside it. */
  String[] relative(String path) {
    if (!path.startsWith(root + "/")) {
      return new String[0];
    }
    return path.substring(root.length() + 1).split("/");
  }
}
