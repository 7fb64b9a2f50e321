package org.coalition.cli;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.coalition.api.HttpPilotClient;
import org.coalition.daemon.pilot.PilotAgent;
import org.coalition.handler.ScriptRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code coalition pilot}: what a pilot job runs on a compute node. The daemon puts its address,
 * the pilot's id and its capability token in the job's environment.
 */
@Command(name = "pilot", mixinStandardHelpOptions = true,
    description = {"Run as a pilot job: ask the daemon for work, run it, heartbeat, report, exit.",
        "Reads COALITION_DAEMON, COALITION_PILOT_ID and COALITION_PILOT_TOKEN, which the daemon sets."})
final class PilotCommand implements Callable<Integer> {
  @Option(names = "--scratch", paramLabel = "DIR", description = "Where the job's working folder goes (default: $TMPDIR or /tmp).")
  Path scratch;

  @Option(names = "--warm-up", description = {"Ask a stand-in daemon in this process for work once, then exit: the run a site records",
      "a class-data-sharing archive of the pilot's start with (docs/site-file.md, 'A faster pilot start')."})
  boolean warmUp;

  @Override
  public Integer call() throws Exception {
    if (warmUp) {
      return warmUp();
    }
    return run(env(PilotAgent.DAEMON), env(PilotAgent.ID), env(PilotAgent.TOKEN));
  }

  /**
   * The pilot's way to its first call for work, against a loopback server that has none (204),
   * so that {@code -XX:ArchiveClassesAtExit} records the classes a pilot's start loads.
   */
  private int warmUp() throws Exception {
    HttpServer standIn = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    standIn.createContext("/", exchange -> {
      exchange.getRequestBody().readAllBytes();
      exchange.sendResponseHeaders(204, -1);
      exchange.close();
    });
    standIn.start();
    try {
      return run("http://" + standIn.getAddress().getHostString() + ":" + standIn.getAddress().getPort() + "/", "warm-up", "warm-up");
    } finally {
      standIn.stop(0);
    }
  }

  private int run(String daemon, String id, String token) throws Exception {
    Path dir = scratch != null ? scratch : Path.of(System.getenv().getOrDefault("TMPDIR", "/tmp"));
    Map<String, String> env = System.getenv();
    return new PilotAgent(new HttpPilotClient(URI.create(daemon.endsWith("/") ? daemon : daemon + "/")), id, token,
        new ScriptRunner(dir), PilotAgent.millis(env, PilotAgent.HEARTBEAT, PilotAgent.DEFAULT_HEARTBEAT_MILLIS),
        PilotAgent.millis(env, PilotAgent.GRACE, PilotAgent.DEFAULT_GRACE_MILLIS), () -> System.currentTimeMillis() / 1000.0).run();
  }

  private static String env(String name) {
    String v = System.getenv(name);
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException(name + " is not set; 'coalition pilot' runs inside a pilot job the daemon submitted");
    }
    return v;
  }
}
