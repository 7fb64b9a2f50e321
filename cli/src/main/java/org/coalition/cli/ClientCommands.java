package org.coalition.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.coalition.api.model.Federation;
import org.coalition.api.model.JobView;
import org.coalition.api.model.Ledger;
import org.coalition.api.model.LedgerRow;
import org.coalition.api.model.Participation;
import org.coalition.api.model.ParticipationChange;
import org.coalition.api.model.SiteView;
import org.coalition.api.model.Status;
import org.coalition.coordination.SiteStatus;
import org.coalition.policy.fairness.Utility;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The commands that read a daemon's API or change what operators may change; tables for people, {@code --json} for scripts. */
final class ClientCommands {
  private ClientCommands() {}

  /**
   * Shared body: fetch, then print the daemon's answer as it is ({@code --json}) or, read into
   * the API's own record (org.coalition.api.model), as a table.
   */
  abstract static class Reader<T> implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @Mixin ApiClient.Target target = new ApiClient.Target();
    private final Class<T> type;

    Reader(Class<T> type) {
      this.type = type;
    }

    abstract JsonNode fetch(URI base) throws Exception;

    abstract void print(PrintWriter out, T answer);

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
        print(out, ApiClient.read(answer, type));
        out.flush();
      }
      return ExitCodes.OK;
    }
  }

  @Command(name = "status", mixinStandardHelpOptions = true, description = "Show one site's load, pilots and decisions (its daemon's /v1/status).")
  static final class StatusCommand extends Reader<Status> {
    StatusCommand() {
      super(Status.class);
    }

    @Override
    JsonNode fetch(URI base) throws Exception {
      return ApiClient.get(base, "v1/status", target.readToken());
    }

    @Override
    void print(PrintWriter out, Status s) {
      List<List<String>> rows = new ArrayList<>();
      rows.add(List.of("site", s.site() + (s.leader() ? " (federation leader)" : "")));
      rows.add(List.of("batch system", s.handler()));
      rows.add(List.of("zookeeper", s.zookeeperConnected() ? "connected" : "DISCONNECTED"));
      rows.add(List.of("queue", s.pendingJobs() + " jobs, " + Output.number(s.pendingCoreSeconds() / 3600, 1) + " core-hours"));
      rows.add(List.of("reserved", s.allocatedCores() + " of " + s.totalCores() + " cores (" + Output.number(100 * s.reservationRatio(), 0)
          + "%; foreign work taken under " + Output.number(100 * s.exposureThreshold(), 0) + "%)"));
      rows.add(List.of("participation", Output.number(s.participation(), 0) + " core-seconds per period"));
      // #51: a person's table says it in words, not as the API's JSON
      rows.add(List.of("pilots", s.pilots().isEmpty() ? "none" : new TreeMap<>(s.pilots()).entrySet().stream()
          .map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", "))));
      rows.add(List.of("jobs in federation", Integer.toString(s.jobsInFederation())));
      Output.table(out, List.of("", ""), rows);
      out.println();
      List<List<String>> decisions = new ArrayList<>();
      for (Map.Entry<String, Long> e : s.decisions().entrySet()) {
        String[] kr = e.getKey().split(" ", 2);
        decisions.add(List.of(kr[0], kr.length > 1 ? kr[1] : "", Long.toString(e.getValue())));
      }
      if (decisions.isEmpty()) {
        out.println("no decision taken yet");
      } else {
        Output.table(out, List.of("decision", "reason", "count"), decisions);
      }
    }
  }

  @Command(name = "sites", mixinStandardHelpOptions = true,
      description = "Show the federation: sites, loads, reservation ratios, participation levels, allowances.")
  static final class SitesCommand extends Reader<Federation> {
    SitesCommand() {
      super(Federation.class);
    }

    @Override
    JsonNode fetch(URI base) throws Exception {
      return ApiClient.get(base, "v1/sites", target.readToken());
    }

    @Override
    void print(PrintWriter out, Federation f) {
      List<List<String>> rows = new ArrayList<>();
      for (SiteView s : f.sites()) {
        boolean live = s.live();
        rows.add(List.of(s.site() + (s.site().equals(f.leader()) ? "*" : ""), s.state(), Integer.toString(s.cores()),
            live ? Integer.toString(s.queuedJobs()) : "-", live ? Output.number(s.queueCoreSeconds() / 3600, 1) : "-",
            live ? Output.number(100 * s.reservationRatio(), 0) + "%" : "-", live ? Output.number(s.participation(), 0) : "-",
            Output.number(s.sendAllowance(), 0), Output.number(s.receiveAllowance(), 0)));
      }
      Output.table(out, List.of("site", "state", "cores", "queued", "queue core-h", "reserved", "level l", "may send", "may take"), rows);
      out.println("* leads the federation; allowances from its BILB period " + f.period() + "; the level and allowances are core-seconds"
          + " per period, as the site file's sharing.participation");
    }
  }

  @Command(name = "ledger", mixinStandardHelpOptions = true, description = "Show each site's contribution, utility and priority (DirectContr).")
  static final class LedgerCommand extends Reader<Ledger> {
    LedgerCommand() {
      super(Ledger.class);
    }

    @Override
    JsonNode fetch(URI base) throws Exception {
      return ApiClient.get(base, "v1/ledger", target.readToken());
    }

    @Override
    void print(PrintWriter out, Ledger l) {
      List<List<String>> rows = new ArrayList<>();
      for (LedgerRow s : l.sites()) {
        rows.add(List.of(s.site(), Output.number(s.contribution(), 1), Output.number(s.utility(), 1), Output.number(s.priority(), 1),
            Long.toString(s.jobsExecuted()), Long.toString(s.jobsSubmitted())));
      }
      Output.table(out, List.of("site", "contribution", "utility", "priority", "ran", "sent"), rows);
      out.println("utility " + l.utility() + " in " + Utility.valueOf(l.utility()).unit() + "; priority = contribution - utility; the highest"
          + " is served first");
    }
  }

  @Command(name = "job", mixinStandardHelpOptions = true, description = "Show where one of this site's federated jobs is, by its local id.")
  static final class JobCommand extends Reader<JobView> {
    JobCommand() {
      super(JobView.class);
    }

    @Parameters(paramLabel = "ID", description = "The job's id at its home site (Slurm: the job id sbatch printed).")
    String id;

    @Override
    JsonNode fetch(URI base) throws Exception {
      if (!id.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,127}")) {
        throw new IllegalArgumentException("'" + id + "' is not a job id");
      }
      Optional<String> token = target.readToken();
      if (token.isEmpty()) {
        // an ordinary user: a daemon on another host of the cluster shows them their own jobs on a MUNGE credential
        Optional<String> munge = MungeCredential.make();
        if (munge.isPresent()) {
          return ApiClient.get(base, "v1/jobs/" + id, "Munge " + munge.get());
        }
      }
      return ApiClient.get(base, "v1/jobs/" + id, token);
    }

    @Override
    void print(PrintWriter out, JobView j) {
      List<List<String>> rows = new ArrayList<>();
      rows.add(List.of("job", j.site() + "/" + j.id()));
      rows.add(List.of("state", j.state()));
      if (j.reason() != null) {
        rows.add(List.of("stays here", j.reason()));
      }
      rows.add(List.of("runs at", j.executor() == null || j.executor().isEmpty() ? "-" : j.executor()));
      if (j.exitCode() != null) {
        rows.add(j.signal() != null ? List.of("ended by", "signal " + j.signal()) : List.of("exit code", Integer.toString(j.exitCode())));
        if (Boolean.TRUE.equals(j.timedOut())) {
          rows.add(List.of("stopped", "at its time limit (replays as TIMEOUT)"));
        }
        if (Boolean.TRUE.equals(j.outOfMemory())) {
          rows.add(List.of("killed", "for memory there (replays as OUT_OF_MEMORY where this site enforces memory)"));
        }
        rows.add(List.of("waited", Output.number(j.start() - j.release(), 1) + " s"));
        rows.add(List.of("ran", Output.number(j.end() - j.start(), 1) + " s"));
      }
      Output.table(out, List.of("", ""), rows);
    }
  }

  @Command(name = "participation", mixinStandardHelpOptions = true, description = "Read or change a site's declared participation level (operators).",
      subcommands = {ParticipationCommand.Get.class, ParticipationCommand.Set.class})
  static final class ParticipationCommand implements Runnable {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
      throw new CommandLine.ParameterException(spec.commandLine(), "name what to do: get or set LEVEL");
    }

    @Command(name = "get", mixinStandardHelpOptions = true, description = "Print the level, core-seconds of foreign work per balancing period.")
    static final class Get extends Reader<Participation> {
      Get() {
        super(Participation.class);
      }

      @Override
      JsonNode fetch(URI base) throws Exception {
        return ApiClient.get(base, "v1/participation", target.readToken());
      }

      @Override
      void print(PrintWriter out, Participation p) {
        out.println(p.site() + ": " + Output.number(p.level(), 0) + " core-seconds per period" + (p.setAt() == null ? " (the site file's)"
            : " (set at runtime " + p.setAt() + ", kept over restarts until the site file's level is edited)"));
      }
    }

    @Command(name = "set", mixinStandardHelpOptions = true, description = "Change the level; needs the operator token.")
    static final class Set extends Reader<Participation> {
      Set() {
        super(Participation.class);
      }

      @Parameters(paramLabel = "LEVEL", description = "Core-seconds of foreign work per balancing period, 0 to 1e15.")
      double level;

      @Option(names = "--token-file", paramLabel = "FILE", description = "The operator token (default: http.operator-token-file of --config).")
      Path tokenFile;

      @Override
      JsonNode fetch(URI base) throws Exception {
        if (!(level >= 0 && level <= SiteStatus.MAX_PARTICIPATION)) {
          // the bound of the site file's sharing.participation and of the API's PUT v1/participation
          throw new IllegalArgumentException("LEVEL must be between 0 and 1e15, was " + level);
        }
        return ApiClient.put(base, "v1/participation", new ParticipationChange(level), target.operatorTokenFile(tokenFile));
      }

      @Override
      void print(PrintWriter out, Participation p) {
        out.println(p.site() + ": participation level now " + Output.number(p.level(), 0) + " core-seconds per period");
      }
    }
  }
}
