package org.coalition.daemon.outputs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.coalition.coordination.RunResult;
import org.coalition.daemon.Trickle;
import org.coalition.daemon.base.PeerSites;
import org.coalition.staging.TarBundle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The home's fetch of an output reference against a real HTTP server on loopback playing the
 * executor: only the executor's own {@code v1/outputs/NAME} is fetched, a body without end is cut
 * at the size bound, one trickled slowly at the time bound or when a window brings too little, and
 * each refused (the executor answered: it is not merely unreachable).
 */
class OutputFetchTest {
  private static final String NAME = "home~7-0123456789abcdef0123456789abcdef";
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @TempDir Path tmp;
  private HttpServer server;
  private String endpoint;
  private final OutputFetch fetch = new OutputFetch(HTTP, PeerSites.NONE, false, Duration.ofSeconds(2));

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    byte[] good = OutputBlob.encode("out\n".getBytes(StandardCharsets.UTF_8), "err\n".getBytes(StandardCharsets.UTF_8));
    server.createContext("/v1/outputs/" + NAME, x -> {
      x.sendResponseHeaders(200, good.length);
      x.getResponseBody().write(good);
      x.close();
    });
    server.createContext("/v1/outputs/home~endless-0123456789abcdef0123456789abcdef", x -> {
      x.sendResponseHeaders(200, 0); // chunked, no length: it never stops
      byte[] chunk = new byte[1 << 20];
      try (OutputStream out = x.getResponseBody()) {
        for (int i = 0; i < 64; i++) {
          out.write(chunk);
        }
      } catch (IOException e) {
        // the home hung up: what it should do
      }
    });
    server.createContext("/v1/outputs/home~slow-0123456789abcdef0123456789abcdef", new Trickle(60, Duration.ofMillis(500)));
    server.start();
    endpoint = "http://127.0.0.1:" + server.getAddress().getPort() + "/";
  }

  /** Serves the outputs {@code outputs} stores, as a daemon's API does. */
  private String serve(RunOutputs outputs) {
    server.createContext("/v1/outputs/", x -> {
      String name = x.getRequestURI().getPath().substring("/v1/outputs/".length());
      Optional<Path> file = outputs.served(name);
      byte[] body = file.isPresent() ? Files.readAllBytes(file.get()) : new byte[0];
      x.sendResponseHeaders(file.isPresent() ? 200 : 404, body.length == 0 ? -1 : body.length);
      x.getResponseBody().write(body);
      x.close();
    });
    return endpoint;
  }

  /** A tar of one file {@code name}, as a pilot hands it in. */
  private Path tarOf(String name, String content) throws IOException {
    Path tar = tmp.resolve("files-" + UUID.randomUUID() + ".tar");
    try (TarArchiveOutputStream out = new TarArchiveOutputStream(Files.newOutputStream(tar))) {
      TarArchiveEntry e = new TarArchiveEntry(name);
      byte[] data = content.getBytes(StandardCharsets.UTF_8);
      e.setSize(data.length);
      out.putArchiveEntry(e);
      out.write(data);
      out.closeArchiveEntry();
    }
    return tar;
  }

  @Test
  void aRunsFilesComeHomeCheckedAndTheirChecksumMustMatch() throws IOException {
    RunOutputs outputs = new RunOutputs(tmp.resolve("spool"), endpoint);
    RunOutputs.Stored stored = outputs.store("home", "7-1", "out\n".getBytes(StandardCharsets.UTF_8), new byte[0],
        Optional.of(tarOf("results/a.txt", "a\n")));
    OutputFetch home = new OutputFetch(new PeerDownload(HTTP, PeerSites.NONE), false, Duration.ofSeconds(2), tmp.resolve("incoming"), 1 << 20);
    serve(outputs);
    CapturedOutput c = home.fetch(stored.reference(), endpoint, "exec", stored.sha256());
    assertEquals("out\n", new String(c.stdout(), StandardCharsets.UTF_8));
    Path unpacked = Files.createDirectory(tmp.resolve("unpacked"));
    try (var in = Files.newInputStream(c.files().orElseThrow())) {
      TarBundle.unpack(in, unpacked, 1 << 20);
    }
    assertEquals("a\n", Files.readString(unpacked.resolve("results/a.txt")));

    IllegalArgumentException changed = assertThrows(IllegalArgumentException.class,
        () -> home.fetch(stored.reference(), endpoint, "exec", "0".repeat(64)));
    assertTrue(changed.getMessage().contains("not the " + "0".repeat(64) + " its result names"), changed.getMessage());

    RunOutputs.Stored hostile = outputs.store("home", "7-2", new byte[0], new byte[0], Optional.of(tarOf("../../etc/cron.d/x", "x")));
    OutputRefused refused = assertThrows(OutputRefused.class, () -> home.fetch(hostile.reference(), endpoint, "exec",
        hostile.sha256()));
    assertTrue(refused.getMessage().contains("a name outside its folder"), refused.getMessage());

    OutputFetch noFiles = new OutputFetch(new PeerDownload(HTTP, PeerSites.NONE), false, Duration.ofSeconds(2), tmp.resolve("incoming"), 0);
    assertThrows(OutputRefused.class, () -> noFiles.fetch(stored.reference(), endpoint, "exec", stored.sha256()),
        "a home that takes no files refuses a run's files");
    try (var left = Files.list(tmp.resolve("incoming"))) {
      assertEquals(1, left.count(), "only the files handed to the caller are left in the incoming folder");
    }
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void theExecutorsOwnOutputIsFetched() {
    CapturedOutput c = fetch.fetch(endpoint + "v1/outputs/" + NAME, endpoint);
    assertArrayEquals("out\n".getBytes(StandardCharsets.UTF_8), c.stdout());
    assertArrayEquals("err\n".getBytes(StandardCharsets.UTF_8), c.stderr());
  }

  @Test
  void anyOtherAddressIsRefusedUnfetched() {
    for (String other : new String[] {
        endpoint + "v1/status", endpoint + "v1/outputs/../v1/status", endpoint + "v1/outputs/" + NAME + "?x=1",
        "http://169.254.169.254/v1/outputs/" + NAME, "file:///etc/shadow", "ftp://x/" + NAME}) {
      OutputRefused e = assertThrows(OutputRefused.class, () -> fetch.fetch(other, endpoint), other);
      assertTrue(e.getMessage().contains("is not"), e.getMessage());
    }
  }

  /** An executor may register any endpoint: over mutual TLS a plain-HTTP one (an address inside the home's network) is never called. */
  @Test
  void betweenDaemonsWithIdentitiesAPlainHttpEndpointIsRefusedUncalled() {
    int[] calls = {0};
    server.createContext("/v1/outputs/home~ssrf-0123456789abcdef0123456789abcdef", x -> {
      calls[0]++;
      x.sendResponseHeaders(500, -1);
      x.close();
    });
    OutputFetch withIdentities = new OutputFetch(HTTP, leaf -> Optional.of("mallory"), false, Duration.ofSeconds(2));
    OutputRefused e = assertThrows(OutputRefused.class,
        () -> withIdentities.fetch(endpoint + "v1/outputs/home~ssrf-0123456789abcdef0123456789abcdef", endpoint, "mallory"));
    assertTrue(e.getMessage().contains("must be https://"), e.getMessage());
    assertEquals(0, calls[0], "the internal address was never called");
  }

  @Test
  void aBodyWithoutEndIsCutAtTheSizeBound() {
    long before = System.nanoTime();
    OutputRefused e = assertThrows(OutputRefused.class,
        () -> fetch.fetch(endpoint + "v1/outputs/home~endless-0123456789abcdef0123456789abcdef", endpoint));
    assertTrue(e.getMessage().contains("larger than " + RunOutputs.MAX_BLOB), e.getMessage());
    assertTrue(System.nanoTime() - before < Duration.ofSeconds(2).toNanos(), "cut, not waited out");
  }

  /**
   * Issue #49, attack 2: a home that takes 1 GiB of a run's files back waited 120 s and 128 s more
   * for every fetch, even of a result with no files. A result that declares its output's size is
   * waited for in proportion to it (here 2 s and nothing for 100 bytes), and no byte more is taken.
   */
  @Test
  void theDeclaredSizeBoundsTheWaitAndTheBytes() throws IOException {
    OutputFetch home = new OutputFetch(new PeerDownload(HTTP, PeerSites.NONE), false, Duration.ofSeconds(2), tmp.resolve("incoming"), 1L << 30);
    long before = System.nanoTime();
    OutputRefused slow = assertThrows(OutputRefused.class, () -> home.fetch(RunResult.builder(0, 1)
        .output(endpoint + "v1/outputs/home~slow-0123456789abcdef0123456789abcdef").outputBytes(100).build(), endpoint, "exec"));
    double seconds = (System.nanoTime() - before) / 1e9;
    assertTrue(slow.getMessage().contains("did not send it within 2 s"), slow.getMessage());
    assertTrue(seconds < 5, "gave up after " + seconds + " s: the bound for 100 bytes is 2 s, not 2 s and 128 s for the files it may take");

    RunOutputs outputs = new RunOutputs(tmp.resolve("spool"), endpoint);
    RunOutputs.Stored stored = outputs.store("home", "7-3", "out\n".getBytes(StandardCharsets.UTF_8), new byte[0],
        Optional.of(tarOf("results/b.txt", "b\n")));
    serve(outputs);
    long bytes = Files.size(outputs.served(stored.reference().substring(stored.reference().lastIndexOf('/') + 1)).orElseThrow());
    RunResult declared = RunResult.builder(0, 1).output(stored.reference()).outputSha256(stored.sha256()).outputBytes(bytes).build();
    assertEquals("out\n", new String(home.fetch(declared, endpoint, "exec").stdout(), StandardCharsets.UTF_8), "its declared size arrives");
    RunResult understated = RunResult.builder(0, 1).output(stored.reference()).outputSha256(stored.sha256()).outputBytes(bytes - 1).build();
    OutputRefused more = assertThrows(OutputRefused.class, () -> home.fetch(understated, endpoint, "exec"));
    assertTrue(more.getMessage().contains("larger than " + (bytes - 1)), more.getMessage());
  }

  /**
   * Issue #49, attack 2: an executor that answers and then trickles its output is cut once a window
   * brings less than a kibibyte, and refused (its result rejected, the job queued again), long
   * before the transfer's own bound; here a 1 s window within a 20 s bound.
   */
  @Test
  void aBodyThatStallsAfterItsHeadersIsRefusedWithinItsWindow() {
    OutputFetch home = new OutputFetch(new PeerDownload(HTTP, PeerSites.NONE, Duration.ofSeconds(1)), false, Duration.ofSeconds(20),
        tmp.resolve("incoming"), 0);
    long before = System.nanoTime();
    OutputRefused e = assertThrows(OutputRefused.class,
        () -> home.fetch(endpoint + "v1/outputs/home~slow-0123456789abcdef0123456789abcdef", endpoint));
    double seconds = (System.nanoTime() - before) / 1e9;
    assertTrue(e.getMessage().contains("answered, then sent"), e.getMessage());
    assertTrue(seconds < 10, "cut after " + seconds + " s: its window is 1 s, its bound 20 s");
  }

  @Test
  void aTrickledBodyIsCutAtTheTimeBoundAndRefused() {
    long before = System.nanoTime();
    OutputRefused e = assertThrows(OutputRefused.class,
        () -> fetch.fetch(endpoint + "v1/outputs/home~slow-0123456789abcdef0123456789abcdef", endpoint));
    double seconds = (System.nanoTime() - before) / 1e9;
    assertTrue(e.getMessage().contains("answered, then did not send it within 2 s"), e.getMessage());
    assertTrue(seconds < 5, "gave up after " + seconds + " s, the bound is 2 s");
  }

  @Test
  void inTheDemoOnlyARegularFileIsReadNeverALinkOrADevice() throws IOException {
    OutputFetch demo = new OutputFetch(HTTP, true);
    Path blob = Files.write(tmp.resolve("out"), OutputBlob.encode("x".getBytes(StandardCharsets.UTF_8), new byte[0]));
    assertArrayEquals("x".getBytes(StandardCharsets.UTF_8), demo.fetch(blob.toUri().toString(), "").stdout());
    Path link = Files.createSymbolicLink(tmp.resolve("link"), blob);
    assertThrows(OutputRefused.class, () -> demo.fetch(link.toUri().toString(), ""), "a link");
    assertThrows(OutputRefused.class, () -> demo.fetch("file:///dev/zero", ""), "a device");
    assertThrows(OutputRefused.class, () -> fetch.fetch(blob.toUri().toString(), endpoint), "file: outside the demo");
  }
}
