package org.coalition.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.coalition.api.model.Drain;
import org.coalition.handler.config.Durations;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code coalition drain}: asks a site's daemon to take no more foreign work, then waits, with
 * progress, until the foreign jobs running there have ended and the daemon has exited (it exits
 * by itself once drained). Pilots still queued are cancelled at once; the site's own users' jobs
 * are not touched. Use it before taking a site out of the federation; an upgrade needs no drain
 * (a restarted daemon takes its running pilots back).
 */
@Command(name = "drain", mixinStandardHelpOptions = true,
    description = "Stop a site taking foreign work, wait for the foreign jobs running there to end, and let its daemon exit (operators).")
final class DrainCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  @Mixin ApiClient.Target target = new ApiClient.Target();

  @Option(names = "--token-file", paramLabel = "FILE", description = "The operator token (default: http.operator-token-file of --config).")
  Path tokenFile;

  @Option(names = "--no-wait", description = "Start draining and return at once.")
  boolean noWait;

  @Option(names = "--timeout", defaultValue = "1d", paramLabel = "DURATION",
      description = "Give up waiting after this long (default ${DEFAULT-VALUE}); the daemon keeps draining.")
  Duration timeout;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    URI base = target.uri();
    Drain d;
    try {
      d = ApiClient.read(ApiClient.post(base, "v1/drain", target.operatorTokenFile(tokenFile)), Drain.class);
      err.println("coalition drain: " + d.site() + " takes no more foreign work; " + running(d.foreignRunning()));
      err.flush();
      long deadline = System.nanoTime() + timeout.toNanos();
      while (!noWait && d.foreignRunning() > 0) {
        if (System.nanoTime() > deadline) {
          err.println("coalition drain: gave up waiting after " + Durations.format(timeout) + " with " + running(d.foreignRunning())
              + "; " + d.site() + " keeps draining");
          err.flush();
          print(d);
          return ExitCodes.UNAVAILABLE;
        }
        Thread.sleep(2000);
        long before = d.foreignRunning();
        JsonNode now;
        try {
          now = ApiClient.get(base, "v1/drain", target.readToken());
        } catch (ApiClient.Failed gone) {
          break; // the daemon exited: drained
        }
        d = ApiClient.read(now, Drain.class);
        if (d.foreignRunning() != before) {
          err.println("coalition drain: " + running(d.foreignRunning()));
          err.flush();
        }
      }
    } catch (ApiClient.Failed e) {
      err.println("coalition drain: " + e.getMessage());
      err.flush();
      return ExitCodes.UNAVAILABLE;
    }
    if (!noWait) {
      d = new Drain(d.site(), true, 0);
      err.println("coalition drain: " + d.site() + " is drained; its daemon exits");
      err.flush();
    }
    print(d);
    return ExitCodes.OK;
  }

  private void print(Drain d) {
    if (target.json) {
      Output.json(spec.commandLine().getOut(), d);
      spec.commandLine().getOut().flush();
    }
  }

  private static String running(long n) {
    return n == 1 ? "1 foreign job still runs there" : n + " foreign jobs still run there";
  }
}
