package org.coalition.api;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.coalition.daemon.Broker;
import org.coalition.daemon.base.PeerSites;
import org.coalition.staging.TarBundle;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.ConnectionLimit;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.LowResourceMonitor;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SizeLimitHandler;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.glassfish.jersey.internal.inject.AbstractBinder;
import org.glassfish.jersey.jackson.JacksonFeature;
import org.glassfish.jersey.jetty.JettyHttpContainer;
import org.glassfish.jersey.server.ContainerFactory;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

/**
 * Starts the HTTP API of one daemon: Jersey on Jetty (HTTPS when given an SSL context), behind
 * {@link ApiGate}. Jetty rather than the JDK's server because the JDK's reads each request's
 * headers on a worker thread, so a few hundred clients that send slowly hold every thread;
 * Jetty parses headers without a thread and closes idle connections.
 *
 * <p>Its bounds are {@link ApiLimits}.
 */
public final class DaemonApi implements AutoCloseable {
  private final Server server;
  private final URI uri;

  private DaemonApi(Server server, URI uri) {
    this.server = server;
    this.uri = uri;
  }

  /**
   * Serves {@code broker}'s API at {@code bind}:{@code port} (port 0: any free port).
   *
   * @param operatorToken the token operator writes (and reads from other hosts) must carry
   */
  public static DaemonApi start(Broker broker, String bind, int port, Optional<SSLContext> tls, byte[] operatorToken, DaemonHealth health) {
    return start(broker, bind, port, tls, operatorToken, health, Optional.empty());
  }

  /**
   * As above; with {@code users}, a user on another host of the cluster reads their own jobs with a
   * MUNGE credential ({@link ApiGate}).
   */
  public static DaemonApi start(Broker broker, String bind, int port, Optional<SSLContext> tls, byte[] operatorToken, DaemonHealth health,
      Optional<MungeUsers> users) {
    if (operatorToken.length < 16) {
      throw new IllegalArgumentException("the operator token must have at least 16 characters");
    }
    ConnectionsPerAddress perClient = new ConnectionsPerAddress(ApiLimits.MAX_PER_CLIENT);
    SiteResource views = new SiteResource(broker, health, perClient::shed);
    PilotResource pilots = new PilotResource(broker);
    PeerResource peers = new PeerResource(broker);
    ResourceConfig app = new ResourceConfig()
        .property(ServerProperties.WADL_FEATURE_DISABLE, true) // no WADL, and no warning at every start that it cannot be made
        .register(JacksonFeature.withoutExceptionMappers())
        .register(ErrorMapper.class)
        // the one instance, bound as what Jersey asks for when it serves the class: an instance
        // registered itself is served too, but Jersey first warns it "will be ignored" as a provider
        .register(new AbstractBinder() {
          @Override
          protected void configure() {
            bind(views).to(SiteResource.class);
            bind(pilots).to(PilotResource.class);
            bind(peers).to(PeerResource.class);
          }
        })
        // by audience; SiteResource and PeerResource share the root "/", which Jersey merges into one
        .register(SiteResource.class)
        .register(PilotResource.class)
        .register(PeerResource.class)
        .register(DashboardResource.class);
    QueuedThreadPool threads = new QueuedThreadPool(ApiLimits.MAX_THREADS, 4);
    threads.setName("api-" + broker.settings().site());
    threads.setDaemon(true);
    Server server = new Server(threads);
    HttpConfiguration http = new HttpConfiguration();
    http.setRequestHeaderSize(16 * 1024);
    http.setSendServerVersion(false);
    ServerConnector connector;
    if (tls.isPresent()) {
      http.addCustomizer(new SecureRequestCustomizer(false)); // clients reach daemons by address as often as by name
      SslContextFactory.Server ssl = new SslContextFactory.Server();
      ssl.setSslContext(tls.get());
      // another site's daemon shows its identity to fetch an output; pilots and people show none
      ssl.setWantClientAuth(broker.tls().peers() != PeerSites.NONE);
      connector = new ServerConnector(server, 1, 1, new SslConnectionFactory(ssl, HttpVersion.HTTP_1_1.asString()), new HttpConnectionFactory(http));
    } else {
      connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
    }
    connector.setHost(bind);
    connector.setPort(port);
    connector.setIdleTimeout(ApiLimits.IDLE.toMillis());
    server.addConnector(connector);
    server.addBean(new ConnectionLimit(ApiLimits.MAX_CONNECTIONS, connector));
    connector.addEventListener(perClient);
    server.addBean(crowding(server, connector));
    ApiGate gate = new ApiGate(broker, operatorToken, broker.tls().peers(), (job, site) -> broker.inputsFor(job, site).isPresent(),
        TarBundle.rawLimit(broker.maxFilesBytes()), credential -> users.flatMap(u -> u.user(credential)),
        (job, user) -> broker.owner(job).filter(user::equals).isPresent()).serving(new ServedNames(bind, broker.settings().endpoint()));
    SizeLimitHandler bodies = new SizeLimitHandler(ApiLimits.MAX_BODY, -1) {
      @Override
      public boolean handle(Request request, Response response, Callback callback) throws Exception {
        // a run's files are bounded by the gate, on their Content-Length, and by the spool as they stream in
        return ApiGate.filesUpload(Request.getPathInContext(request)) ? getHandler().handle(request, response, callback)
            : super.handle(request, response, callback);
      }
    };
    bodies.setHandler(ContainerFactory.createContainer(JettyHttpContainer.class, app));
    gate.setHandler(bodies);
    server.setHandler(gate);
    server.setErrorHandler(new JsonErrors());
    try {
      server.start();
    } catch (Exception e) {
      try {
        server.stop();
      } catch (Exception ignored) {
        // already failing: the cause below says why
      }
      throw new IllegalStateException("cannot serve the API on " + bind + ":" + port + ": " + e.getMessage(), e);
    }
    String host = bind.contains(":") ? "[" + bind + "]" : bind;
    return new DaemonApi(server, URI.create((tls.isPresent() ? "https" : "http") + "://" + host + ":" + connector.getLocalPort() + "/"));
  }

  /**
   * Jetty's low-resource monitor, checking every half second whether more than {@link ApiLimits#CROWDED}
   * connections are open, and shortening every connection's idle timeout to {@link ApiLimits#IDLE_CROWDED}
   * while they are: a client that sends its request at once is not idle that long, one that sends
   * a byte every few seconds to hold its connection is shed.
   */
  private static LowResourceMonitor crowding(Server server, ServerConnector connector) {
    LowResourceMonitor monitor = new LowResourceMonitor(server);
    monitor.setMonitoredConnectors(List.of(connector));
    monitor.setMonitorThreads(false);
    monitor.addLowResourceCheck(monitor.new MaxConnectionsLowResourceCheck(ApiLimits.CROWDED));
    monitor.setLowResourcesIdleTimeout((int) ApiLimits.IDLE_CROWDED.toMillis());
    monitor.setPeriod(500);
    monitor.setMaxLowResourcesTime(1000); // and again each second, for the connections opened since
    monitor.setAcceptingInLowResources(true);
    return monitor;
  }

  /** Where the API answers, e.g. {@code http://127.0.0.1:8443/}. */
  public URI uri() {
    return uri;
  }

  @Override
  public void close() {
    try {
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException("stopping the API: " + e.getMessage(), e);
    }
  }
}
