package org.coalition.cli;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.coalition.api.HttpPilotClient;
import org.coalition.daemon.PilotAgent;
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

  @Override
  public Integer call() throws Exception {
    String daemon = env(PilotAgent.DAEMON);
    String id = env(PilotAgent.ID);
    String token = env(PilotAgent.TOKEN);
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
