package org.coalition.api;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.Function;
import org.coalition.daemon.base.PeerSites;
import org.coalition.daemon.executor.PilotTokens;
import org.coalition.daemon.outputs.RunOutputs;
import org.coalition.daemon.pilot.PilotService;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The API's door, in front of Jersey: who may ask what is decided from the request line and
 * headers alone, before a byte of the body is read, so that an unauthenticated client can make
 * the daemon neither read nor decode anything.
 *
 * <ul>
 *   <li>A pilot's calls ({@code POST v1/pilots/ID/...}) carry that pilot's token.
 *   <li>Operator writes ({@code PUT v1/participation}) carry the operator token.
 *   <li>Reads from another host carry the operator token, except a run's output (its name is the
 *       capability) and the API document; reads from this host (loopback) are open, as
 *       {@code squeue} is. A user on another host of the cluster reads their own jobs
 *       ({@code GET v1/jobs/ID}) with a MUNGE credential ({@code Authorization: Munge ...},
 *       {@link MungeUsers}), when the site file names {@code http.unmunge}.
 *   <li>A job's inputs ({@code GET v1/inputs/JOB}) go, over mutual TLS, only to the certificate of
 *       the site that holds the job's claim; without identities between daemons, to this host only.
 *   <li>Each endpoint has a body bound, checked on {@code Content-Length}; a body sent without one
 *       is cut by the server-wide bound ({@link DaemonApi#MAX_BODY}), except a run's files
 *       ({@code POST v1/pilots/ID/files}), which must say their length, at most {@link #filesBound}.
 *   <li>A request from this host whose {@code Host} header is not a name of the daemon is refused
 *       ({@link ServedNames}: DNS rebinding).
 * </ul>
 */
final class ApiGate extends Handler.Wrapper {
  /** A pilot's report: two streams of at most 8 MiB each, in base64, and a little JSON. */
  static final long MAX_FINISH_BODY = ApiLimits.MAX_BODY;
  static final long MAX_OPERATOR_BODY = 4096;

  private final PilotTokens pilots;
  private final byte[] operatorToken;
  private final PeerSites peers;
  private final BiPredicate<String, String> inputsFor;
  private final long filesBound;
  private final Function<String, Optional<String>> users;
  private final BiPredicate<String, String> ownedBy;
  private ServedNames names = new ServedNames("127.0.0.1", "");

  /** {@code peers}: who a client certificate names; with it, an output is served to its home site's identity alone. */
  ApiGate(PilotTokens pilots, byte[] operatorToken, PeerSites peers) {
    this(pilots, operatorToken, peers, (job, site) -> false, 0);
  }

  /**
   * As above; {@code inputsFor} tells whether a site may fetch a job's inputs (it holds the job's
   * claim), and a run's files may be {@code filesBound} bytes.
   */
  ApiGate(PilotTokens pilots, byte[] operatorToken, PeerSites peers, BiPredicate<String, String> inputsFor, long filesBound) {
    this(pilots, operatorToken, peers, inputsFor, filesBound, credential -> Optional.empty(), (job, user) -> false);
  }

  /**
   * As above; {@code users} tells who a MUNGE credential proves (empty: no one), and {@code ownedBy}
   * whether a job is a user's: a user on another host reads their own jobs ({@code GET v1/jobs/ID}).
   */
  ApiGate(PilotTokens pilots, byte[] operatorToken, PeerSites peers, BiPredicate<String, String> inputsFor, long filesBound,
      Function<String, Optional<String>> users, BiPredicate<String, String> ownedBy) {
    this.pilots = pilots;
    this.operatorToken = operatorToken.clone();
    this.peers = peers;
    this.inputsFor = inputsFor;
    this.filesBound = filesBound;
    this.users = users;
    this.ownedBy = ownedBy;
  }

  /** The names a request from this host may give in its Host header ({@link ServedNames}); before: localhost, addresses, this machine's names. */
  ApiGate serving(ServedNames served) {
    this.names = served;
    return this;
  }

  /** Whether {@code path} is a pilot's upload of its run's files, which passes the server-wide body bound. */
  static boolean filesUpload(String path) {
    String[] seg = path.startsWith("/") ? path.substring(1).split("/") : path.split("/");
    return seg.length == 4 && seg[0].equals("v1") && seg[1].equals("pilots") && seg[3].equals("files");
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    ApiError refusal;
    boolean loopback = isLoopback(Request.getRemoteAddr(request));
    String host = request.getHeaders().get(HttpHeader.HOST);
    if (loopback && !names.serves(host)) {
      refusal = new ApiError(ApiError.Code.FORBIDDEN, "Host '" + host + "' is not a name of this daemon (a guard against DNS rebinding);"
          + " reach it as localhost, by its address or by its host's name");
    } else {
      try {
        refusal = check(request.getMethod(), Request.getPathInContext(request), request.getHeaders().get(HttpHeader.AUTHORIZATION),
            request.getLength(), loopback, peerSite(request));
      } catch (PilotService.PilotRefused e) {
        refusal = new ApiError(ApiError.Code.FORBIDDEN, e.getMessage());
      }
    }
    if (refusal == null) {
      return super.handle(request, response, callback);
    }
    response.setStatus(refusal.code().status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.CONNECTION, "close"); // the body, if any, is never read
    Content.Sink.write(response, true, refusal.json(), callback);
    return true;
  }

  /** The member site the request's client certificate names, if any. */
  private Optional<String> peerSite(Request request) {
    if (!(request.getAttribute(EndPoint.SslSessionData.ATTRIBUTE) instanceof EndPoint.SslSessionData ssl)) {
      return Optional.empty();
    }
    X509Certificate[] chain = ssl.peerCertificates();
    return chain == null || chain.length == 0 ? Optional.empty() : peers.site(chain[0]);
  }

  /** Why the request is refused, or null to let it through; {@code peer}: the site the client's certificate names. */
  ApiError check(String method, String path, String authorization, long length, boolean local, Optional<String> peer) {
    String[] seg = path.startsWith("/") ? path.substring(1).split("/") : path.split("/");
    boolean pilotCall = "POST".equals(method) && seg.length == 4 && seg[0].equals("v1") && seg[1].equals("pilots");
    if (pilotCall) {
      String token = bearer(authorization);
      if (token == null) {
        return unauthorized("the pilot's token");
      }
      pilots.authenticate(seg[2], token);
      if (seg[3].equals("files")) {
        return length < 0 ? new ApiError(ApiError.Code.INVALID, "send the files with a Content-Length") : length > filesBound ? tooLarge(length)
            : null;
      }
      return length > (seg[3].equals("finish") ? MAX_FINISH_BODY : 0) ? tooLarge(length) : null;
    }
    if (("GET".equals(method) || "HEAD".equals(method)) && seg.length == 3 && seg[0].equals("v1") && seg[1].equals("inputs")) {
      boolean allowed = peers == PeerSites.NONE ? local : peer.isPresent() && inputsFor.test(seg[2], peer.get());
      return !allowed ? new ApiError(ApiError.Code.FORBIDDEN, "a job's inputs are served only to the site that holds its claim"
          + (peers == PeerSites.NONE ? " (without identities between daemons: to this host only)" : peer.map(p -> "; this certificate names "
          + p).orElse("; none was shown"))) : length > 0 ? tooLarge(length) : null;
    }
    if ("GET".equals(method) || "HEAD".equals(method)) {
      boolean output = seg.length == 3 && seg[0].equals("v1") && seg[1].equals("outputs");
      if (output && peers != PeerSites.NONE) {
        // between daemons over mutual TLS: an output goes to its home site's identity, whoever else knows its name
        Optional<String> home = RunOutputs.homeOf(seg[2]);
        return home.isPresent() && home.equals(peer) ? (length > 0 ? tooLarge(length) : null)
            : new ApiError(ApiError.Code.FORBIDDEN, "an output is served only to its home site's certificate"
                + peer.map(p -> "; this one names " + p).orElse("; none was shown"));
      }
      // the dashboard's page and files hold no data: the page reads the API, with the token from another host
      boolean open = local || output || path.equals("/openapi.yaml") || path.equals("/") || path.startsWith("/ui/");
      String credential = munge(authorization);
      if (!open && credential != null && seg.length == 3 && seg[0].equals("v1") && seg[1].equals("jobs")) {
        // a user on another host of the cluster asks after a job: theirs only
        Optional<String> user = users.apply(credential);
        return user.isEmpty() ? new ApiError(ApiError.Code.FORBIDDEN, "the MUNGE credential does not decode here (expired, used"
            + " before, or made outside this cluster's MUNGE domain); make a new one with munge -n")
            : !ownedBy.test(seg[2], user.get()) ? new ApiError(ApiError.Code.FORBIDDEN, "job " + seg[2] + " is not " + user.get() + "'s")
            : length > 0 ? tooLarge(length) : null;
      }
      if (!open && !operator(authorization)) {
        return authorization == null ? unauthorized("the operator token (reads from another host need it)") : wrongToken(authorization);
      }
      return length > 0 ? tooLarge(length) : null;
    }
    if (!operator(authorization)) {
      return authorization == null ? unauthorized("the operator token") : wrongToken(authorization);
    }
    return length > MAX_OPERATOR_BODY ? tooLarge(length) : null;
  }

  private boolean operator(String authorization) {
    String token = bearer(authorization);
    return token != null && MessageDigest.isEqual(operatorToken, token.getBytes(StandardCharsets.UTF_8));
  }

  /** The token of an {@code Authorization: Bearer TOKEN} header, or null; the resource reads the pilot's from here once the gate let it in. */
  private static ApiError wrongToken(String authorization) {
    return new ApiError(ApiError.Code.FORBIDDEN, munge(authorization) != null
        ? "a MUNGE credential reads its user's own jobs only (GET v1/jobs/ID); this needs the operator token"
        : "the operator token is wrong");
  }

  /** The MUNGE credential of {@code Authorization: Munge CREDENTIAL}, or null. */
  static String munge(String authorization) {
    return authorization != null && authorization.regionMatches(true, 0, "Munge ", 0, 6) ? authorization.substring(6).strip() : null;
  }

  static String bearer(String authorization) {
    if (authorization == null || !authorization.startsWith("Bearer ") || authorization.length() == 7) {
      return null;
    }
    return authorization.substring(7).trim();
  }

  private static ApiError unauthorized(String what) {
    return new ApiError(ApiError.Code.UNAUTHORIZED, "send 'Authorization: Bearer TOKEN' with " + what);
  }

  private static ApiError tooLarge(long length) {
    return new ApiError(ApiError.Code.TOO_LARGE, "a body of " + length + " bytes is over this endpoint's limit");
  }

  private static boolean isLoopback(String address) {
    try {
      return address != null && InetAddress.getByName(address).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
