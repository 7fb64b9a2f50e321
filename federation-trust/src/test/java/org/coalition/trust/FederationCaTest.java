package org.coalition.trust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.coalition.zookeeper.policy.Identity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FederationCaTest {
  @TempDir
  Path dir;

  @Test
  void issuesIdentitiesTheTrustStoreAcceptsAndAStrangersCaDoesNot() throws Exception {
    FederationCa ca = FederationCa.create(dir.resolve("ca"), "test federation");
    Path north = ca.issue(new Identity("fed", "north"), List.of("north-daemon", "127.0.0.1"), dir.resolve("north/site.p12"));
    X509Certificate[] chain = chain(north);
    assertEquals(new Identity("fed", "north"), Identity.of(chain[0].getSubjectX500Principal()));
    assertTrue(chain[0].getSubjectAlternativeNames().stream().anyMatch(n -> n.get(1).equals("north-daemon")), "the daemon's host name");
    trustManager(ca.trustStore()).checkClientTrusted(chain, "EC");

    FederationCa stranger = FederationCa.create(dir.resolve("stranger"), "a stranger");
    Path forged = stranger.issue(new Identity("fed", "north"), List.of(), dir.resolve("forged.p12"));
    assertThrows(CertificateException.class, () -> trustManager(ca.trustStore()).checkClientTrusted(chain(forged), "EC"),
        "a certificate naming north from another CA");
  }

  @Test
  void keysArePrivateAndTheTrustStoreIsPublic() throws Exception {
    FederationCa ca = FederationCa.create(dir.resolve("ca"), "t");
    Path site = ca.issue(new Identity("fed", "south"), List.of(), dir.resolve("south.p12"));
    for (Path secret : List.of(dir.resolve("ca/ca.p12"), dir.resolve("ca/ca.p12.password"), site, StoreFiles.passwordFile(site))) {
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(secret)), secret.toString());
    }
    assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(ca.trustStore())));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("ca"))));
  }

  @Test
  void aKeyWhosePasswordOthersCanReadIsRefusedSayingHowToFixIt() throws Exception {
    FederationCa ca = FederationCa.create(dir.resolve("ca"), "t");
    Path site = ca.issue(new Identity("fed", "south"), List.of(), dir.resolve("south.p12"));
    Files.setPosixFilePermissions(StoreFiles.passwordFile(site), PosixFilePermissions.fromString("rw-r--r--"));
    TrustException e = assertThrows(TrustException.class, () -> StoreFiles.load(site, true));
    assertTrue(e.getMessage().contains("chmod 600 " + StoreFiles.passwordFile(site)), e.getMessage());
    assertTrue(!e.getMessage().contains(new String(StoreFiles.password(site, false))), "the password is not echoed");
  }

  @Test
  void aSecondCaInTheSameFolderIsRefusedAndAServerCertificateNamesNoIdentity() throws Exception {
    FederationCa ca = FederationCa.create(dir.resolve("ca"), "t");
    TrustException e = assertThrows(TrustException.class, () -> FederationCa.create(dir.resolve("ca"), "t"));
    assertTrue(e.getMessage().contains("would void every certificate"), e.getMessage());
    Path server = ca.issueServer("zk1", List.of("localhost"), dir.resolve("zk1.p12"));
    assertThrows(IllegalArgumentException.class, () -> Identity.of(chain(server)[0].getSubjectX500Principal()));
    assertEquals(FederationCa.load(dir.resolve("ca")).certificate(), ca.certificate());
  }

  private static X509Certificate[] chain(Path store) throws Exception {
    KeyStore ks = StoreFiles.load(store, true);
    return Arrays.stream(ks.getCertificateChain("identity")).map(c -> (X509Certificate) c).toArray(X509Certificate[]::new);
  }

  private static X509TrustManager trustManager(Path trust) throws Exception {
    TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
    tmf.init(StoreFiles.load(trust, false));
    return (X509TrustManager) tmf.getTrustManagers()[0];
  }
}
