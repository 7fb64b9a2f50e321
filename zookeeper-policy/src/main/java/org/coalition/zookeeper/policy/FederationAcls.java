package org.coalition.zookeeper.policy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import org.apache.zookeeper.ZooDefs.Perms;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;

/**
 * The ACLs of a federation's tree, in the {@value FederationAclProvider#SCHEME} scheme. Clients
 * write nodes with these lists; the servers' {@link FederationAclProvider} checks the claims and
 * results members make under other sites' nodes against the same lists, so the two cannot drift.
 *
 * <p>Each entry's id is a rule: {@code site:FED/NAME} (that identity), {@code member:FED} (any
 * identity of the federation), {@code operator:FED}, {@code claim:FED/HOME} (another member may
 * create the node {@code claim} under HOME's job, with {@link #claim}'s ACL and no other) and
 * {@code result:FED/CLAIMER} (the claimer may create {@code result} under its claim, with {@link #result}'s ACL).
 */
public final class FederationAcls {
  static final String SITE = "site";
  static final String MEMBER = "member";
  static final String OPERATOR = "operator";
  static final String CLAIM = "claim";
  static final String RESULT = "result";
  /** {@code member:*} and {@code operator:*}: any federation's. */
  static final String ANY = "*";
  /** What a site may do with its own nodes: everything but change their ACL. */
  private static final int OWNER = Perms.ALL & ~Perms.ADMIN;
  /** What a claimer may do with its claim: read it and renew it. */
  private static final int CLAIMER = Perms.READ | Perms.WRITE;

  private FederationAcls() {}

  /**
   * A node of {@code owner}'s own: every right but ADMIN to it (it may not re-ACL the node and
   * shut the members out of reading it), all rights to the operator, read to the members.
   */
  public static List<ACL> own(Identity owner) {
    return list(new ACL(OWNER, rule(SITE, owner.toString())), operatorAll(owner.federation()), membersRead(owner.federation()));
  }

  /**
   * Whether {@code acl} is one a member {@code who} may give a node it creates among its own:
   * {@link #own} or {@link #job}, or either as earlier daemons wrote them (the site's entry
   * with ALL, ADMIN included: harmless now, since the servers refuse a member's ADMIN whatever the ACL says).
   */
  static boolean isOwnNodeAcl(Identity who, List<ACL> acl) {
    if (acl == null) {
      return false;
    }
    String site = rule(SITE, who.toString()).getId();
    List<ACL> asNow = new ArrayList<>();
    for (ACL entry : acl) {
      boolean siteEntry = entry.getId() != null && FederationAclProvider.SCHEME.equals(entry.getId().getScheme())
          && site.equals(entry.getId().getId()) && entry.getPerms() == Perms.ALL;
      asNow.add(siteEntry ? new ACL(OWNER, entry.getId()) : entry);
    }
    return same(asNow, own(who)) || same(asNow, job(who));
  }

  /**
   * A capacity-market record of {@code owner}'s, and the day folder that holds them: written once
   * and never changed or deleted by its writer (it may create in a day folder, and read; no WRITE,
   * no DELETE), so a sealed bid cannot be rewritten after the gate nor a revealed one taken back
   * after the close; the operator deletes days past. Members read it.
   */
  public static List<ACL> sealed(Identity owner) {
    return list(new ACL(Perms.CREATE | Perms.READ, rule(SITE, owner.toString())), operatorAll(owner.federation()),
        membersRead(owner.federation()));
  }

  /** A node only the operator writes (the federation's record and its branches); members read it. */
  public static List<ACL> operatorOnly(String federation) {
    return list(operatorAll(federation), membersRead(federation));
  }

  /**
   * The ensemble's root {@code /}: any federation's operator creates and re-ACLs there, members
   * read; no member adds a top-level node (ZooKeeper's default lets anyone do anything).
   */
  public static List<ACL> root() {
    return list(new ACL(Perms.CREATE | Perms.READ | Perms.ADMIN, rule(OPERATOR, ANY)), new ACL(Perms.READ, rule(MEMBER, ANY)));
  }

  /** {@code /coalition}, shared by the federations an ensemble serves: any operator adds its federation; its members read. */
  public static List<ACL> shared(String federation) {
    return list(operatorAll(federation), new ACL(Perms.CREATE | Perms.READ, rule(OPERATOR, ANY)), new ACL(Perms.READ, rule(MEMBER, ANY)));
  }

  /** A job of {@code home}'s: the home's own node, where another member may add exactly its claim. */
  public static List<ACL> job(Identity home) {
    List<ACL> acl = new ArrayList<>(own(home));
    acl.add(new ACL(Perms.CREATE, rule(CLAIM, home.toString())));
    return Collections.unmodifiableList(acl);
  }

  /**
   * {@code claimer}'s claim on a job of {@code home}'s: the claimer renews it (WRITE) and adds its
   * result; it cannot change the ACL, delete it or add anything else. The home deletes it (requeue,
   * acknowledgement) and its result.
   */
  public static List<ACL> claim(Identity claimer, Identity home) {
    return list(new ACL(CLAIMER, rule(SITE, claimer.toString())), new ACL(Perms.CREATE, rule(RESULT, claimer.toString())),
        new ACL(Perms.READ | Perms.DELETE, rule(SITE, home.toString())), operatorAll(home.federation()), membersRead(home.federation()));
  }

  /**
   * The member a claim's ACL names as its claimer, if {@code acl} is exactly {@link #claim}'s list
   * for that member on a job of {@code home}'s. The servers let a member create a claim only with
   * its own name there, and only that member add the claim's result, so this is who made both;
   * the executor a claim or result record names is only its writer's word.
   */
  public static Optional<Identity> claimer(List<ACL> acl, Identity home) {
    if (acl == null) {
      return Optional.empty();
    }
    String prefix = SITE + ":" + home.federation() + "/";
    for (ACL entry : acl) {
      Id id = entry.getId();
      if (id != null && FederationAclProvider.SCHEME.equals(id.getScheme()) && entry.getPerms() == CLAIMER && id.getId().startsWith(prefix)) {
        Identity claimer;
        try {
          claimer = Identity.parse(id.getId().substring(SITE.length() + 1));
        } catch (IllegalArgumentException e) {
          return Optional.empty();
        }
        return same(acl, claim(claimer, home)) && !claimer.equals(home) && !claimer.isOperator() ? Optional.of(claimer) : Optional.empty();
      }
    }
    return Optional.empty();
  }

  /** A result: written once by its claimer and never changed; the home deletes it through the claim. */
  public static List<ACL> result(Identity claimer) {
    return list(operatorAll(claimer.federation()), membersRead(claimer.federation()));
  }

  /** Whether {@code asked} is exactly {@code prescribed}, in any order, no entry twice or more. */
  static boolean same(List<ACL> asked, List<ACL> prescribed) {
    return asked != null && asked.size() == prescribed.size() && new HashSet<>(asked).equals(new HashSet<>(prescribed));
  }

  static Id rule(String kind, String value) {
    return new Id(FederationAclProvider.SCHEME, kind + ":" + value);
  }

  private static ACL operatorAll(String federation) {
    return new ACL(Perms.ALL, rule(OPERATOR, federation));
  }

  private static ACL membersRead(String federation) {
    return new ACL(Perms.READ, rule(MEMBER, federation));
  }

  /** ZooKeeper asks its ACL lists contains(null); List.of throws there, so these are ArrayLists. */
  private static List<ACL> list(ACL... entries) {
    return Collections.unmodifiableList(new ArrayList<>(List.of(entries)));
  }
}
