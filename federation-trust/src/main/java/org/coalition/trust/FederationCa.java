package org.coalition.trust;

import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.coalition.zookeeper.policy.Identity;

/**
 * A federation's certificate authority, kept by its operator in one folder:
 * {@code ca.p12} (the CA's key, owner-only, with {@code ca.p12.password}) and {@code trust.p12}
 * (the CA's certificate alone, with {@code trust.p12.password}: the trust store every member,
 * server and pilot is given). It issues a member's or the operator's identity
 * ({@code CN=NAME,OU=FEDERATION,O=Coalition}, for clients and for a daemon's HTTPS) and a
 * ZooKeeper server's certificate ({@code CN=HOST,O=Coalition servers}, which names no identity).
 * Keys are EC P-256, signatures SHA-256 with ECDSA.
 */
public final class FederationCa {
  public static final String CA_STORE = "ca.p12";
  public static final String TRUST_STORE = "trust.p12";
  /** The organisation of server certificates: not {@link Identity#ORGANIZATION}, so a server's key is no member's. */
  public static final String SERVERS = "Coalition servers";
  private static final Duration CA_VALIDITY = Duration.ofDays(3650);
  private static final Duration VALIDITY = Duration.ofDays(825);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Path dir;
  private final PrivateKey key;
  private final X509Certificate cert;

  private FederationCa(Path dir, PrivateKey key, X509Certificate cert) {
    this.dir = dir;
    this.key = key;
    this.cert = cert;
  }

  /** Makes a new CA named {@code title} in {@code dir} (created owner-only); refuses to replace one that is there. */
  public static FederationCa create(Path dir, String title) {
    Path store = dir.resolve(CA_STORE);
    if (Files.exists(store)) {
      throw new TrustException(store + ": a CA is already here; issuing with it goes on, a new one would void every certificate it issued");
    }
    try {
      Files.createDirectories(dir);
      if (Files.getFileStore(dir).supportsFileAttributeView("posix")) {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
      }
      KeyPair pair = keyPair();
      X500Principal subject = new X500Principal("CN=" + title.replaceAll("[,+=\"\\\\<>;#]", " ") + ",O=Coalition CA");
      Instant now = Instant.now();
      X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(subject, serial(), Date.from(now.minus(Duration.ofHours(1))),
          Date.from(now.plus(CA_VALIDITY)), subject, pair.getPublic());
      JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
      b.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
      b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(pair.getPublic()));
      X509Certificate cert = sign(b, pair.getPrivate());
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry("federation-ca", cert);
      Path trustStore = dir.resolve(TRUST_STORE);
      StoreFiles.save(trust, trustStore, StoreFiles.newPassword(trustStore, false), false);
      KeyStore ca = KeyStore.getInstance("PKCS12");
      ca.load(null, null);
      char[] password = StoreFiles.newPassword(store, true);
      ca.setKeyEntry("ca", pair.getPrivate(), password, new Certificate[] {cert});
      StoreFiles.save(ca, store, password, true);
      return load(dir);
    } catch (IOException | GeneralSecurityException | OperatorCreationException e) {
      throw new TrustException(dir + ": cannot create the CA: " + e.getMessage(), e);
    }
  }

  /** The CA in {@code dir}. */
  public static FederationCa load(Path dir) {
    Path store = dir.resolve(CA_STORE);
    if (!Files.isRegularFile(store)) {
      throw new TrustException(store + ": no CA here; make one with: coalition federation ca --dir " + dir);
    }
    KeyStore ks = StoreFiles.load(store, true);
    try {
      PrivateKey key = (PrivateKey) ks.getKey("ca", StoreFiles.password(store, true));
      X509Certificate cert = (X509Certificate) ks.getCertificate("ca");
      if (key == null || cert == null) {
        throw new TrustException(store + ": holds no entry 'ca' with a key and a certificate");
      }
      return new FederationCa(dir, key, cert);
    } catch (GeneralSecurityException e) {
      throw new TrustException(store + ": cannot read the CA's key: " + e.getMessage(), e);
    }
  }

  /** The trust store to hand to members, servers and pilots. */
  public Path trustStore() {
    return dir.resolve(TRUST_STORE);
  }

  public X509Certificate certificate() {
    return cert;
  }

  /**
   * Issues {@code identity}'s key and certificate into {@code out} (owner-only, with its password
   * file), valid for the host names and addresses {@code hosts} too (a daemon's HTTPS). Replaces what is at {@code out}.
   */
  public Path issue(Identity identity, List<String> hosts, Path out) {
    return issue(identity.subject(), hosts, out);
  }

  /** Issues a ZooKeeper server's key and certificate for {@code host} (and {@code alsoHosts}) into {@code out}. */
  public Path issueServer(String host, List<String> alsoHosts, Path out) {
    List<String> hosts = new ArrayList<>(List.of(host));
    hosts.addAll(alsoHosts);
    return issue(new X500Principal("CN=" + host + ",O=" + SERVERS), hosts, out);
  }

  private Path issue(X500Principal subject, List<String> hosts, Path out) {
    try {
      KeyPair pair = keyPair();
      Instant now = Instant.now();
      X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(cert, serial(), Date.from(now.minus(Duration.ofHours(1))),
          Date.from(now.plus(VALIDITY)), subject, pair.getPublic());
      JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
      b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
      b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(new KeyPurposeId[] {KeyPurposeId.id_kp_clientAuth,
          KeyPurposeId.id_kp_serverAuth}));
      b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(pair.getPublic()));
      b.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(cert));
      if (!hosts.isEmpty()) {
        b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(hosts.stream().map(FederationCa::altName)
            .toArray(GeneralName[]::new)));
      }
      X509Certificate issued = sign(b, key);
      Files.createDirectories(out.toAbsolutePath().getParent());
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      char[] password = StoreFiles.newPassword(out, true);
      ks.setKeyEntry("identity", pair.getPrivate(), password, new Certificate[] {issued, cert});
      StoreFiles.save(ks, out, password, true);
      return out;
    } catch (IOException | GeneralSecurityException | OperatorCreationException e) {
      throw new TrustException(out + ": cannot issue the certificate of " + subject.getName() + ": " + e.getMessage(), e);
    }
  }

  private static GeneralName altName(String host) {
    boolean address = host.matches("[0-9.]+") || host.contains(":");
    if (address) {
      try {
        return new GeneralName(GeneralName.iPAddress, InetAddress.getByName(host).getHostAddress());
      } catch (IOException e) {
        throw new TrustException("'" + host + "' is not an address", e);
      }
    }
    return new GeneralName(GeneralName.dNSName, host);
  }

  private static KeyPair keyPair() throws GeneralSecurityException {
    KeyPairGenerator kpg = KeyPairGenerator.getInstance("EC");
    kpg.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
    return kpg.generateKeyPair();
  }

  private static BigInteger serial() {
    return new BigInteger(127, RANDOM);
  }

  private static X509Certificate sign(X509v3CertificateBuilder b, PrivateKey key) throws OperatorCreationException, GeneralSecurityException {
    return new JcaX509CertificateConverter().getCertificate(b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(key)));
  }
}
