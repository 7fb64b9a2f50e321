package org.coalition.daemon;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An executor's endpoint that answers (200, no length) and then sends its body a byte at a time,
 * to hold the home's fetch (issue #49, attack 2), until it has sent {@code bytes} or the home
 * hangs up; how long each request was held, in seconds, goes to {@link #held()}.
 */
public final class Trickle implements HttpHandler {
  private final int bytes;
  private final Duration every;
  private final List<Double> held = Collections.synchronizedList(new ArrayList<>());

  public Trickle(int bytes, Duration every) {
    this.bytes = bytes;
    this.every = every;
  }

  @Override
  public void handle(HttpExchange x) throws IOException {
    long t0 = System.nanoTime();
    x.sendResponseHeaders(200, 0);
    try (OutputStream out = x.getResponseBody()) {
      for (int i = 0; i < bytes; i++) {
        out.write('x');
        out.flush();
        Thread.sleep(every.toMillis());
      }
    } catch (IOException e) {
      // the home hung up: what it should do
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    held.add((System.nanoTime() - t0) / 1e9);
  }

  /** How long each request that has ended was held, in seconds. */
  List<Double> held() {
    return List.copyOf(held);
  }
}
