package org.coalition.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The commands that read a daemon's API or change what operators may change; tables for people, {@code --json} for scripts. */
final class ClientCommands {
  private ClientCommands() {}

  /** Shared body: fetch, then print as JSON or as a table. */
  abstract static class Reader implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @Mixin ApiClient.Target target = new ApiClient.Target();

    abstract JsonNode fetch(URI base) throws Exception;

    abstract void print(PrintWriter out, JsonNode answer);

    @Override
    public Integer call() throws Exception {
      JsonNode answer;
      try {
        answer = fetch(target.uri());
      } catch (ApiClient.Failed e) {
        spec.commandLine().getErr().println(spec.qualifiedName() + ": " + e.getMessage());
        spec.commandLine().getErr().flush();
        return ExitCodes.UNAVAILABLE;
      }
      PrintWriter out = spec.commandLine().getOut();
      if (target.json) {
        Output.json(out, answer);
      } else {
        print(out, answer);
        out.flush();
      }
      return ExitCodes.OK;
    }
  }

  @Command(name = "status", mixinStandardHelpOptions = true, description = "Show one site's load, pilots and decisions (its daemon's /v1/status).")
  static final class Status extends Reader {
    @Override
    JsonNode fetch(URI base) throws Exception {
      return ApiClient.get(base, "v1/status");
    }

    @Override
    void print(PrintWriter out, JsonNode s) {
      List<List<String>> rows = new ArrayList<>();
      rows.add(List.of("site", s.path("site").asText() + (s.path("leader").asBoolean() ? " (federation leader)" : "")));
      rows.add(List.of("batch system", s.path("handler").asText()));
      rows.add(List.of("zookeeper", s.path("zookeeperConnected").asBoolean() ? "connected" : "DISCONNECTED"));
      rows.add(List.of("queue", s.path("pendingJobs").asInt() + " jobs, " + Output.number(s.path("pendingCoreSeconds").asDouble(), 0)
          + " core-seconds"));
      rows.add(List.of("reserved", s.path("allocatedCores").asInt() + " of " + s.path("totalCores").asInt() + " cores ("
          + Output.number(100 * s.path("reservationRatio").asDouble(), 0) + "%; foreign work taken under "
          + Output.number(100 * s.path("exposureThreshold").asDouble(), 0) + "%)"));
      rows.add(List.of("participation", Output.number(s.path("participation").asDouble(), 0) + " core-seconds per period"));
      rows.add(List.of("pilots", s.path("pilots").toString()));
      rows.add(List.of("jobs in federation", s.path("jobsInFederation").asText()));
      Output.table(out, List.of("", ""), rows);
      out.println();
      List<List<String>> decisions = new ArrayList<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = s.path("decisions").fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        String[] kr = e.getKey().split(" ", 2);
        decisions.add(List.of(kr[0], kr.length > 1 ? kr[1] : "", e.getValue().asText()));
      }
      Output.table(out, List.of("decision", "reason", "count"), decisions);
    }
  }

  @Command(name = "sites", mixinStandardHelpOptions = true,
      description = "Show the federation: sites, loads, reservation ratios, participation levels, allowances.")
  static final class Sites extends Reader {
    @Override
    JsonNode fetch(URI base) throws Exception {
      return ApiClient.get(base, "v1/sites");
    }

    @Override
    void print(PrintWriter out, JsonNode f) {
      List<List<String>> rows = new ArrayList<>();
      for (JsonNode s : f.path("sites")) {
        boolean live = s.path("live").asBoolean();
        rows.add(List.of(s.path("site").asText() + (s.path("site").asText().equals(f.path("leader").asText()) ? "*" : ""),
            live ? "live" : "gone", s.path("cores").asText(), live ? s.path("queuedJobs").asText() : "-",
            live ? Output.number(s.path("queueCoreSeconds").asDouble(), 0) : "-",
            live ? Output.number(100 * s.path("reservationRatio").asDouble(), 0) + "%" : "-",
            live ? Output.number(s.path("participation").asDouble(), 0) : "-",
            Output.number(s.path("sendAllowance").asDouble(), 0), Output.number(s.path("receiveAllowance").asDouble(), 0)));
      }
      Output.table(out, List.of("site", "state", "cores", "queued", "queue core-s", "reserved", "level l", "may send", "may take"), rows);
      out.println("* leads the federation; allowances from its BILB period " + f.path("period").asText());
    }
  }

  @Command(name = "ledger", mixinStandardHelpOptions = true, description = "Show each site's contribution, utility and priority (DirectContr).")
  static final class Ledger extends Reader {
    @Override
    JsonNode fetch(URI base) throws Exception {
      return ApiClient.get(base, "v1/ledger");
    }

    @Override
    void print(PrintWriter out, JsonNode l) {
      List<List<String>> rows = new ArrayList<>();
      for (JsonNode s : l.path("sites")) {
        rows.add(List.of(s.path("site").asText(), Output.number(s.path("contribution").asDouble(), 1),
            Output.number(s.path("utility").asDouble(), 1), Output.number(s.path("priority").asDouble(), 1),
            s.path("jobsExecuted").asText(), s.path("jobsSubmitted").asText()));
      }
      Output.table(out, List.of("site", "contribution", "utility", "priority", "ran", "sent"), rows);
      out.println("utility " + l.path("utility").asText() + "; priority = contribution - utility; the highest is served first");
    }
  }

  @Command(name = "job", mixinStandardHelpOptions = true, description = "Show where one of this site's federated jobs is, by its local id.")
  static final class Job extends Reader {
    @Parameters(paramLabel = "ID", description = "The job's id at its home site (Slurm: the job id sbatch printed).")
    String id;

    @Override
    JsonNode fetch(URI base) throws Exception {
      if (!id.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,127}")) {
        throw new IllegalArgumentException("'" + id + "' is not a job id");
      }
      return ApiClient.get(base, "v1/jobs/" + id);
    }

    @Override
    void print(PrintWriter out, JsonNode j) {
      List<List<String>> rows = new ArrayList<>();
      rows.add(List.of("job", j.path("site").asText() + "/" + j.path("id").asText()));
      rows.add(List.of("state", j.path("state").asText()));
      rows.add(List.of("runs at", j.path("executor").asText().isEmpty() ? "-" : j.path("executor").asText()));
      if (!j.path("exitCode").isNull() && !j.path("exitCode").isMissingNode()) {
        rows.add(List.of("exit code", j.path("exitCode").asText()));
        rows.add(List.of("waited", Output.number(j.path("start").asDouble() - j.path("release").asDouble(), 1) + " s"));
        rows.add(List.of("ran", Output.number(j.path("end").asDouble() - j.path("start").asDouble(), 1) + " s"));
      }
      Output.table(out, List.of("", ""), rows);
    }
  }

  @Command(name = "participation", mixinStandardHelpOptions = true, description = "Read or change a site's declared participation level (operators).",
      subcommands = {Participation.Get.class, Participation.Set.class})
  static final class Participation implements Runnable {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
      throw new CommandLine.ParameterException(spec.commandLine(), "name what to do: get or set LEVEL");
    }

    @Command(name = "get", mixinStandardHelpOptions = true, description = "Print the level, core-seconds of foreign work per balancing period.")
    static final class Get extends Reader {
      @Override
      JsonNode fetch(URI base) throws Exception {
        return ApiClient.get(base, "v1/participation");
      }

      @Override
      void print(PrintWriter out, JsonNode p) {
        out.println(p.path("site").asText() + ": " + Output.number(p.path("level").asDouble(), 0) + " core-seconds per period");
      }
    }

    @Command(name = "set", mixinStandardHelpOptions = true, description = "Change the level; needs the operator token.")
    static final class Set extends Reader {
      @Parameters(paramLabel = "LEVEL", description = "Core-seconds of foreign work per balancing period, >= 0.")
      double level;

      @Option(names = "--token-file", paramLabel = "FILE", description = "The operator token (default: http.operator-token-file of --config).")
      Path tokenFile;

      @Override
      JsonNode fetch(URI base) throws Exception {
        if (!(level >= 0) || Double.isInfinite(level)) {
          throw new IllegalArgumentException("LEVEL must be a finite number >= 0, was " + level);
        }
        return ApiClient.put(base, "v1/participation", Map.of("level", level), target.operatorTokenFile(tokenFile));
      }

      @Override
      void print(PrintWriter out, JsonNode p) {
        out.println(p.path("site").asText() + ": participation level now " + Output.number(p.path("level").asDouble(), 0)
            + " core-seconds per period");
      }
    }
  }
}
