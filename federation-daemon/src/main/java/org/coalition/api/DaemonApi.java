package org.coalition.api;

import com.sun.net.httpserver.HttpServer;
import java.net.URI;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.coalition.daemon.Broker;
import org.glassfish.jersey.jackson.JacksonFeature;
import org.glassfish.jersey.jdkhttp.JdkHttpServerFactory;
import org.glassfish.jersey.server.ResourceConfig;

/** Starts the HTTP API of one daemon on the JDK's server (HTTPS when given an SSL context). */
public final class DaemonApi implements AutoCloseable {
  /** What the API reports about the daemon's connections. */
  public interface Health {
    boolean zookeeperConnected();

    String handler();
  }

  private final HttpServer server;
  private final URI uri;

  private DaemonApi(HttpServer server, URI uri) {
    this.server = server;
    this.uri = uri;
  }

  /**
   * Serves {@code broker}'s API at {@code bind}:{@code port} (port 0: any free port).
   *
   * @param operatorToken the token operator writes must carry
   */
  public static DaemonApi start(Broker broker, String bind, int port, Optional<SSLContext> tls, byte[] operatorToken, Health health) {
    if (operatorToken.length < 16) {
      throw new IllegalArgumentException("the operator token must have at least 16 characters");
    }
    ResourceConfig app = new ResourceConfig()
        .register(JacksonFeature.withoutExceptionMappers())
        .register(ErrorMapper.class)
        .register(new ApiResource(broker, operatorToken, health));
    URI base = URI.create((tls.isPresent() ? "https" : "http") + "://" + bind + ":" + port + "/");
    HttpServer server = tls.isPresent()
        ? JdkHttpServerFactory.createHttpServer(base, app, tls.get(), true)
        : JdkHttpServerFactory.createHttpServer(base, app, true);
    URI actual = URI.create(base.getScheme() + "://" + bind + ":" + server.getAddress().getPort() + "/");
    return new DaemonApi(server, actual);
  }

  /** Where the API answers, e.g. {@code http://127.0.0.1:8443/}. */
  public URI uri() {
    return uri;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
