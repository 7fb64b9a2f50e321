package org.coalition.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.coalition.api.ApiLimits;
import org.coalition.api.DaemonApi;
import org.coalition.daemon.pilot.PilotAgent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #49's attack 13: a tester's 4,200 slow connections made fresh clients wait 5-8 s, since
 * they held the API's whole connection limit. Through real sockets against the real server: one
 * host is held to its share of the limit while others are served, and clients that trickle bytes
 * to hold their connections are shed once the API is crowded, before its limit.
 */
class ApiCrowdIT {
  private static final byte[] OPERATOR = "operator-token-0123456789".getBytes(StandardCharsets.UTF_8);
  private static final byte[] HALF_A_REQUEST = "POST /v1/pilots/x/work HTTP/1.1\r\nHost: a\r\n".getBytes(StandardCharsets.US_ASCII);

  @TempDir Path tmp;

  @Test
  void aHostPastItsShareOfConnectionsHasTheRestClosedUnreadWhileOthersAreServed() throws Exception {
    InetAddress remote = HostAddresses.outward();
    OnePilot one = OnePilot.start(tmp);
    try (DaemonApi api = DaemonApi.start(one.exec(), "0.0.0.0", 0, Optional.empty(), OPERATOR, ApiAbuseIT.health())) {
      int port = api.uri().getPort();
      List<Socket> held = new ArrayList<>();
      try {
        // the host's whole share and ten more, each connection half a request that never ends; the
        // server opens them on several threads, so which ten it closes is not the last ten's order
        // (each sends a byte every two seconds, so that none idles out of the API's 10 s however slowly they open)
        int past = 10;
        long lastTrickle = System.nanoTime();
        for (int i = 0; i < ApiLimits.MAX_PER_CLIENT + past; i++) {
          held.add(slowClient(remote, port));
          if (System.nanoTime() - lastTrickle > 2_000_000_000L) {
            trickle(held);
            lastTrickle = System.nanoTime();
          }
        }
        trickle(held);
        int closed = 0;
        for (long end = System.nanoTime() + 5_000_000_000L; closed < past && System.nanoTime() < end; Thread.sleep(100)) {
          closed = closed(held);
        }
        Thread.sleep(500);
        closed = closed(held);
        assertEquals(past, closed, "of " + held.size() + " connections from " + remote + ", those past its share of " + ApiLimits.MAX_PER_CLIENT
            + " are closed unread, and only those");
        held.removeIf(ApiCrowdIT::isClosed);
        String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString()).body();
        Matcher shed = Pattern.compile("(?m)^coalition_api_connections_shed_total\\{[^}]*\\} ([0-9.]+)$").matcher(metrics);
        assertTrue(shed.find(), "the API's metrics count the connections shed: " + metrics);
        assertEquals(past, Double.parseDouble(shed.group(1)), "connections shed, as the metric counts them");
        // loopback, the daemon's own host, is served meanwhile
        String status = answer(InetAddress.getLoopbackAddress(), port, "/v1/health/live");
        assertTrue(status.startsWith("HTTP/1.1 200"), "loopback is served while " + remote + " holds its share: " + status);
        // a connection the host gives up makes room for one more of its own
        held.remove(0).close();
        String again = "";
        for (long end = System.nanoTime() + 5_000_000_000L; !again.startsWith("HTTP/1.1") && System.nanoTime() < end; Thread.sleep(100)) {
          again = answer(remote, port, "/v1/health/live");
        }
        assertTrue(again.startsWith("HTTP/1.1 "), "with one connection given up, " + remote + " is served again: '" + again + "'");
      } finally {
        for (Socket s : held) {
          s.close();
        }
      }
    }
  }

  @Test
  void clientsThatTrickleAreShedOnceTheApiIsCrowdedAndAPilotIsServedThroughout() throws Exception {
    OnePilot one = OnePilot.start(tmp);
    Map<String, String> pilot = Map.of(PilotAgent.ID, one.pilot(), PilotAgent.TOKEN, one.envToken());
    try (DaemonApi api = DaemonApi.start(one.exec(), "127.0.0.1", 0, Optional.empty(), OPERATOR, ApiAbuseIT.health())) {
      int port = api.uri().getPort();
      int crowd = ApiLimits.CROWDED + 200; // from loopback, which no per-host share holds
      List<Socket> slow = new ArrayList<>();
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      long servedMillisMax = 0;
      try {
        // each sends a byte every two seconds, from its first: inside the API's idle timeout, outside a
        // crowded one (opening them all takes seconds here, longer than a crowded API lets one idle)
        long lastTrickle = System.nanoTime();
        for (int i = 0; i < crowd; i++) {
          slow.add(slowClient(InetAddress.getLoopbackAddress(), port));
          if (System.nanoTime() - lastTrickle > 2_000_000_000L) {
            trickle(slow);
            lastTrickle = System.nanoTime();
          }
        }
        for (int round = 0; round < 3; round++) {
          Thread.sleep(2000);
          trickle(slow);
          servedMillisMax = Math.max(servedMillisMax, ApiAbuseIT.heardMillis(client, api, pilot));
        }
        int open = slow.size() - closed(slow);
        System.out.printf("api crowd: %d clients trickling a byte every 2 s, %d still open 6 s after the last opened (crowded past %d),"
            + " pilot served in at most %d ms%n",
            crowd, open, ApiLimits.CROWDED, servedMillisMax);
        assertTrue(open <= ApiLimits.CROWDED, open + " of " + crowd + " trickling clients still open: the crowded API shed none of them");
      } finally {
        for (Socket s : slow) {
          s.close();
        }
      }
    }
  }

  /**
   * A connection from {@code from} to itself that has sent half a request's headers. Loopback's
   * are left to the kernel to bind: binding thousands first, each to a port of its own whatever
   * it connects to, took 36 s here.
   */
  private static Socket slowClient(InetAddress from, int port) throws IOException {
    Socket s = from.isLoopbackAddress() ? new Socket(from, port) : new Socket(from, port, from, 0);
    s.getOutputStream().write(HALF_A_REQUEST);
    return s;
  }

  /** One more byte of a header that never ends, from each of {@code sockets} still open. */
  private static void trickle(List<Socket> sockets) {
    for (Socket s : sockets) {
      try {
        s.getOutputStream().write('X');
      } catch (IOException e) {
        // shed: what the crowd test expects of a crowded API
      }
    }
  }

  private static int closed(List<Socket> sockets) throws IOException {
    int n = 0;
    for (Socket s : sockets) {
      n += isClosed(s) ? 1 : 0;
    }
    return n;
  }

  private static boolean isClosed(Socket s) {
    try {
      return s.isClosed() || closedWithin(s, 1);
    } catch (IOException e) {
      return true;
    }
  }

  /** Whether the server closed {@code s} (its end read) within {@code millis}. */
  private static boolean closedWithin(Socket s, int millis) throws IOException {
    s.setSoTimeout(millis);
    try {
      return s.getInputStream().read() < 0;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (SocketException e) {
      return true; // reset: closed too
    }
  }

  /** The status line (or "" if closed first) of a GET from {@code from}, whole, at once. */
  private static String answer(InetAddress from, int port, String path) throws IOException {
    try (Socket s = new Socket(from, port, from, 0)) {
      s.setSoTimeout(3000);
      s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      InputStream in = s.getInputStream();
      StringBuilder line = new StringBuilder();
      for (int c = in.read(); c >= 0 && c != '\r'; c = in.read()) {
        line.append((char) c);
      }
      return line.toString();
    } catch (SocketException e) {
      return "";
    }
  }
}
