package org.coalition.api;

import java.time.Duration;

/**
 * What the API holds at most ({@link DaemonApi} sets them on Jetty): {@link #MAX_THREADS} worker
 * threads, {@link #MAX_CONNECTIONS} open connections (past it new ones wait in the kernel's
 * backlog), {@link #MAX_PER_CLIENT} of them per client other than loopback ({@link
 * ConnectionsPerAddress}), 16 KiB of request headers, {@link #MAX_BODY} of body on any request
 * (each endpoint's own bound is lower, see {@link ApiGate}), and a connection that sends or takes
 * nothing for {@link #IDLE} is closed; for {@link #IDLE_CROWDED} while more than {@link #CROWDED}
 * are open, which sheds clients that trickle before the limit is reached.
 */
public final class ApiLimits {
  public static final int MAX_THREADS = 32;
  public static final int MAX_CONNECTIONS = 4096;
  /** The largest body any request may carry: a pilot's report of two 8 MiB streams in base64, and its JSON. */
  public static final long MAX_BODY = 24L << 20;
  public static final Duration IDLE = Duration.ofSeconds(10);
  /** The connections one client (an IPv4 address, an IPv6 /64; loopback not held) may hold open. */
  public static final int MAX_PER_CLIENT = MAX_CONNECTIONS / 8;
  /** Past this many open connections, a connection idle for {@link #IDLE_CROWDED} is closed. */
  public static final int CROWDED = MAX_CONNECTIONS * 3 / 4;
  public static final Duration IDLE_CROWDED = Duration.ofSeconds(1);

  private ApiLimits() {}
}
