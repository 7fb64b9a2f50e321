package org.coalition.zookeeper.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import javax.security.auth.x500.X500Principal;
import org.apache.zookeeper.ZooDefs.Perms;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.Test;

/**
 * The rules alone, as a server applies them to one ACL entry (ZkPolicyIT runs them in real servers).
 */
class FederationAclProviderTest {
  private static final Identity NORTH = new Identity("fed", "north");
  private static final Identity SOUTH = new Identity("fed", "south");
  private static final Identity STRANGER = new Identity("other", "south");
  private static final String JOB = "/coalition/fed/jobs/north/j1";

  @Test
  void aMemberMayCreateOnlyTheClaimWithThePrescribedAcl() {
    String rule = "claim:fed/north";
    assertTrue(allows(SOUTH, rule, JOB + "/claim", Perms.CREATE, FederationAcls.claim(SOUTH, NORTH)));
    assertFalse(allows(SOUTH, rule, JOB + "/squat", Perms.CREATE, FederationAcls.claim(SOUTH, NORTH)), "another name");
    assertFalse(allows(SOUTH, rule, JOB + "/claim", Perms.CREATE, FederationAcls.own(SOUTH)), "an ACL that keeps ADMIN and shuts the home out");
    List<ACL> extra = new ArrayList<>(FederationAcls.claim(SOUTH, NORTH));
    extra.add(new ACL(Perms.ALL, FederationAcls.rule(FederationAcls.SITE, "fed/west")));
    assertFalse(allows(SOUTH, rule, JOB + "/claim", Perms.CREATE, extra), "an ACL with an extra entry");
    assertFalse(allows(SOUTH, rule, JOB + "/claim", Perms.CREATE, FederationAcls.claim(NORTH, NORTH)), "an ACL naming someone else as claimer");
    assertFalse(allows(NORTH, rule, JOB + "/claim", Perms.CREATE, FederationAcls.claim(NORTH, NORTH)), "the home claiming its own job");
    assertFalse(allows(STRANGER, rule, JOB + "/claim", Perms.CREATE, FederationAcls.claim(STRANGER, NORTH)), "another federation's site");
    assertFalse(allows(SOUTH, rule, JOB + "/claim", Perms.DELETE, null), "deleting a claim");
    assertFalse(allows(Identity.operator("fed"), rule, JOB + "/claim", Perms.CREATE, FederationAcls.claim(Identity.operator("fed"), NORTH)));
  }

  @Test
  void onlyTheClaimerMayAddItsResultAndOnlyWithTheResultAcl() {
    String rule = "result:fed/south";
    assertTrue(allows(SOUTH, rule, JOB + "/claim/result", Perms.CREATE, FederationAcls.result(SOUTH)));
    assertFalse(allows(SOUTH, rule, JOB + "/claim/other", Perms.CREATE, FederationAcls.result(SOUTH)));
    assertFalse(allows(SOUTH, rule, JOB + "/claim/result", Perms.CREATE, FederationAcls.own(SOUTH)), "a result it could rewrite");
    assertFalse(allows(new Identity("fed", "west"), rule, JOB + "/claim/result", Perms.CREATE, FederationAcls.result(SOUTH)));
  }

  @Test
  void sitesMembersAndOperatorsAreWhoTheyAre() {
    assertTrue(allows(NORTH, "site:fed/north", "/x", Perms.WRITE, null));
    assertFalse(allows(SOUTH, "site:fed/north", "/x", Perms.WRITE, null));
    assertTrue(allows(SOUTH, "member:fed", "/x", Perms.READ, null));
    assertFalse(allows(STRANGER, "member:fed", "/x", Perms.READ, null));
    assertTrue(allows(STRANGER, "member:*", "/coalition", Perms.READ, null));
    assertTrue(allows(Identity.operator("fed"), "operator:fed", "/x", Perms.ALL, null));
    assertFalse(allows(NORTH, "operator:fed", "/x", Perms.WRITE, null));
    assertFalse(allows(Identity.operator("other"), "operator:fed", "/x", Perms.WRITE, null));
    assertFalse(allows(NORTH, "nonsense", "/x", Perms.READ, null));
  }

  @Test
  void aMemberNeverReAclsItsOwnNodesAndCreatesThemOnlyWithTheirLists() {
    String rule = "site:fed/north";
    assertFalse(allows(NORTH, rule, "/coalition/fed/ledger/north", Perms.ADMIN, null), "setACL on its own ledger row");
    assertTrue(allows(NORTH, rule, "/coalition/fed/sites/north/live", Perms.CREATE, FederationAcls.own(NORTH)));
    assertTrue(allows(NORTH, rule, JOB, Perms.CREATE, FederationAcls.job(NORTH)));
    List<ACL> earlier = new ArrayList<>(FederationAcls.own(NORTH));
    earlier.set(0, new ACL(Perms.ALL, earlier.get(0).getId()));
    assertTrue(allows(NORTH, rule, "/coalition/fed/sites/north/live", Perms.CREATE, earlier), "the list earlier daemons wrote");
    List<ACL> hidden = new ArrayList<>(FederationAcls.own(NORTH));
    hidden.removeIf(a -> a.getId().getId().startsWith("member:"));
    assertFalse(allows(NORTH, rule, "/coalition/fed/sites/north/live", Perms.CREATE, hidden), "a node the members may not read");
    assertFalse(allows(NORTH, rule, "/coalition/fed/sites/north/live", Perms.CREATE, FederationAcls.result(NORTH)), "a node it could not write");
    assertFalse(allows(NORTH, rule, "/coalition/fed/sites/north/live", Perms.CREATE, null));
    List<ACL> twice = new ArrayList<>(FederationAcls.own(NORTH));
    twice.add(twice.get(0));
    assertFalse(allows(NORTH, rule, "/coalition/fed/sites/north/live", Perms.CREATE, twice), "an entry twice");
    for (String elsewhere : List.of("/coalition/fed/ledger/north/x", "/coalition/fed/allowances/north/x", "/coalition/fed/sites/north/x",
        JOB + "/child", "/coalition/fed/jobs/north/", "/coalition/other/jobs/north/j", "/coalition/fed/jobs/south/j")) {
      assertFalse(allows(NORTH, rule, elsewhere, Perms.CREATE, FederationAcls.own(NORTH)), "a node of its own at " + elsewhere);
      assertFalse(allows(NORTH, rule, elsewhere, Perms.CREATE, FederationAcls.job(NORTH)), "a job at " + elsewhere);
    }
    assertTrue(FederationAcls.own(NORTH).stream().noneMatch(a -> a.getId().getId().startsWith("site:") && (a.getPerms() & Perms.ADMIN) != 0),
        "a site's own nodes give it no ADMIN");
  }

  @Test
  void aMemberMakesOnlyDaysAndTheirRecordsInItsOwnMarketFolderAndOnlyWriteOnce() {
    String rule = "site:fed/north";
    String market = "/coalition/fed/market/north";
    for (String own : List.of(market + "/2026-12-03", market + "/2026-12-03/1796342400.batch.cpu8x1.commit", market + "/2026-12-03/clearing")) {
      assertTrue(allows(NORTH, rule, own, Perms.CREATE, FederationAcls.sealed(NORTH)), own);
      assertFalse(allows(NORTH, rule, own, Perms.CREATE, FederationAcls.own(NORTH)), "a market record it could rewrite or delete at " + own);
    }
    for (String elsewhere : List.of(market, market + "/", market + "/2026-12-03/clearing/child", market + "//x", market + "/d/",
        "/coalition/fed/market/south/2026-12-03", "/coalition/fed/market/northern/2026-12-03", "/coalition/fed/market")) {
      assertFalse(allows(NORTH, rule, elsewhere, Perms.CREATE, FederationAcls.sealed(NORTH)), "a node of its own at " + elsewhere);
    }
    assertFalse(allows(NORTH, rule, JOB, Perms.CREATE, FederationAcls.sealed(NORTH)), "a job its home could not withdraw");
    assertTrue(FederationAcls.sealed(NORTH).stream().filter(a -> a.getId().getId().equals(rule))
        .allMatch(a -> (a.getPerms() & (Perms.WRITE | Perms.DELETE | Perms.ADMIN)) == 0), "a sealed record gives its writer no WRITE or DELETE");
  }

  @Test
  void onlyKnownRulesAreValidAclIds() {
    FederationAclProvider provider = new FederationAclProvider();
    for (String valid : List.of("site:fed/north", "member:fed", "member:*", "operator:*", "claim:fed/north", "result:fed/south")) {
      assertTrue(provider.isValid(valid), valid);
    }
    for (String invalid : List.of("site:north", "member:fed/x", "claim:", "anyone", "site:fed/no rth", "world:anyone")) {
      assertFalse(provider.isValid(invalid), invalid);
    }
  }

  @Test
  void anIdentityIsExactlyCommonNameUnitAndTheCoalitionOrganisation() {
    assertEquals(NORTH, Identity.of(new X500Principal("CN=north, OU=fed, O=Coalition")));
    assertEquals(NORTH, Identity.of(NORTH.subject()));
    for (String subject : List.of("CN=north, O=Coalition", "CN=north, OU=fed, O=Other", "CN=north, OU=fed, OU=x, O=Coalition",
        "CN=north, OU=fed, O=Coalition, L=Paris", "CN=no/rth, OU=fed, O=Coalition", "CN=zk1, O=Coalition servers")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Identity.of(new X500Principal(subject)), subject);
      assertTrue(e.getMessage().contains("names no federation identity") || e.getMessage().contains("is not a name"), e.getMessage());
    }
  }

  private static boolean allows(Identity who, String rule, String path, int perm, List<ACL> setAcls) {
    return FederationAclProvider.allows(who, rule, path, perm, setAcls);
  }
}
