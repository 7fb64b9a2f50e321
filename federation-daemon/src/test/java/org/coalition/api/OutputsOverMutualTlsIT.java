package org.coalition.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import org.coalition.daemon.DaemonTls;
import org.coalition.daemon.LocalFederation;
import org.coalition.daemon.base.PeerSites;
import org.coalition.daemon.outputs.OutputFetch;
import org.coalition.daemon.outputs.OutputRefused;
import org.coalition.trust.FederationCa;
import org.coalition.trust.StoreFiles;
import org.coalition.zookeeper.policy.Identity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Outputs between daemons over mutual TLS with identities from the federation's CA: west's
 * daemon serves an output of north's run to north's certificate alone, whoever else learnt its
 * name (results are readable by every member), and north accepts an output only from the
 * certificate of the site that wrote the result.
 */
class OutputsOverMutualTlsIT {
  private static final String FED = "fed";
  private static final PeerSites PEERS = leaf -> {
    try {
      Identity who = Identity.of(leaf.getSubjectX500Principal());
      return who.federation().equals(FED) ? Optional.of(who.name()) : Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  };

  @TempDir Path tmp;
  private LocalFederation fed;
  private DaemonApi api;

  @BeforeEach
  void open() throws Exception {
    fed = new LocalFederation(tmp);
  }

  @AfterEach
  void close() {
    if (api != null) {
      api.close();
    }
    fed.close();
  }

  @Test
  void anOutputGoesToItsHomesCertificateAloneAndComesOnlyFromItsExecutors() throws Exception {
    FederationCa ca = FederationCa.create(tmp.resolve("ca"), FED);
    List<String> hosts = List.of("127.0.0.1", "localhost");
    Path west = ca.issue(new Identity(FED, "west"), hosts, tmp.resolve("west.p12"));
    Path north = ca.issue(new Identity(FED, "north"), hosts, tmp.resolve("north.p12"));
    Path south = ca.issue(new Identity(FED, "south"), hosts, tmp.resolve("south.p12"));
    Path stranger = FederationCa.create(tmp.resolve("other"), "other").issue(new Identity(FED, "north"), hosts, tmp.resolve("x.p12"));
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    String endpoint = "https://127.0.0.1:" + port + "/";
    LocalFederation.Site executor = fed.site("west", 2, b -> b, endpoint, new DaemonTls(Optional.of(context(west, ca.trustStore())), PEERS));
    api = DaemonApi.start(executor.broker(), "127.0.0.1", port, Optional.of(context(west, ca.trustStore())),
        "operator-token-0123456789".getBytes(StandardCharsets.UTF_8), LocalHealth.INSTANCE);
    byte[] stdout = new byte[50_000];
    Arrays.fill(stdout, (byte) 'x');
    String ref = executor.broker().outputs().store("north", "j1-7", stdout, new byte[0]);
    assertTrue(ref.startsWith(endpoint + "v1/outputs/north~j1-7-"), ref);

    assertEquals(200, get(ref, north, ca.trustStore()).statusCode(), "north, the output's home");
    HttpResponse<byte[]> bySouth = get(ref, south, ca.trustStore());
    assertEquals(403, bySouth.statusCode(), "south knows the name (results are read by every member) but is not the home");
    assertTrue(new String(bySouth.body(), StandardCharsets.UTF_8).contains("served only to its home site's certificate; this one names south"));
    HttpResponse<byte[]> anonymous = HttpClient.newBuilder().sslContext(trustOnly(ca.trustStore())).build()
        .send(HttpRequest.newBuilder(URI.create(ref)).build(), HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(403, anonymous.statusCode(), "no certificate: no output");
    // the API asks for a certificate without requiring one (pilots and people show none): one from another CA counts as none
    HttpResponse<byte[]> forged = get(ref, stranger, ca.trustStore());
    assertEquals(403, forged.statusCode(), "another CA's certificate naming north");
    assertTrue(new String(forged.body(), StandardCharsets.UTF_8).contains("none was shown"));

    OutputFetch home = new OutputFetch(HttpClient.newBuilder().sslContext(context(north, ca.trustStore())).build(), PEERS, false);
    assertArrayEquals(stdout, home.fetch(ref, endpoint, "west").stdout(), "north fetches its output from west, who ran it");
    OutputRefused lie = assertThrows(OutputRefused.class, () -> home.fetch(ref, endpoint, "south"),
        "a result by south pointing at west's daemon");
    assertTrue(lie.getMessage().contains("was served by site west, not by south"), lie.getMessage());
  }

  private static HttpResponse<byte[]> get(String ref, Path identity, Path trust) throws Exception {
    return HttpClient.newBuilder().sslContext(context(identity, trust)).build()
        .send(HttpRequest.newBuilder(URI.create(ref)).build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static SSLContext context(Path identity, Path trust) throws Exception {
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(StoreFiles.load(identity, true), StoreFiles.password(identity, true));
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(kmf.getKeyManagers(), trustManagers(trust), null);
    return ctx;
  }

  private static SSLContext trustOnly(Path trust) throws Exception {
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(null, trustManagers(trust), null);
    return ctx;
  }

  private static TrustManager[] trustManagers(Path trust) throws Exception {
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    KeyStore ks = StoreFiles.load(trust, false);
    tmf.init(ks);
    return tmf.getTrustManagers();
  }
}
