package org.coalition.zookeeper.policy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
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

  private FederationAcls() {}

  /** A node of {@code owner}'s own: all rights to it and the operator, read to the members. */
  public static List<ACL> own(Identity owner) {
    return list(new ACL(Perms.ALL, rule(SITE, owner.toString())), operatorAll(owner.federation()), membersRead(owner.federation()));
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
    return list(new ACL(Perms.READ | Perms.WRITE, rule(SITE, claimer.toString())), new ACL(Perms.CREATE, rule(RESULT, claimer.toString())),
        new ACL(Perms.READ | Perms.DELETE, rule(SITE, home.toString())), operatorAll(home.federation()), membersRead(home.federation()));
  }

  /** A result: written once by its claimer and never changed; the home deletes it through the claim. */
  public static List<ACL> result(Identity claimer) {
    return list(operatorAll(claimer.federation()), membersRead(claimer.federation()));
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
