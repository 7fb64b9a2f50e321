package org.coalition.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.coalition.config.ConfigException;
import org.coalition.config.SiteConfig;
import org.coalition.config.SiteConfigReader;
import org.coalition.daemon.base.OperatorSettings;
import org.coalition.handler.HandlerSettings;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code coalition config check FILE}: reads a site file as the daemon would and reports every problem. */
@Command(name = "config", mixinStandardHelpOptions = true, description = "Work with site files (docs/site-file.md).",
    subcommands = ConfigCommand.Check.class)
final class ConfigCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "name what to do: check");
  }

  @Command(name = "check", mixinStandardHelpOptions = true,
      header = "Read a site file as the daemon would and report every problem.",
      description = {"Read a site file as the daemon would, and check what it names as the daemon does before it starts (the",
          "federation's key and trust stores, the operator token and the API's key store with their modes, the spool): every",
          "problem with its line, exit 4 if there is one; otherwise a summary of what the daemon would do. --online also",
          "connects to ZooKeeper as the site and asks each batch system for its load (exit 3 if one does not answer)."})
  static final class Check implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The site file (YAML).")
    Path file;

    @CommandLine.Option(names = "--json", description = "Print the result as JSON on stdout (for scripts).")
    boolean json;

    @CommandLine.Option(names = "--syntax", description = "Check the file alone, not the files it names (for a file written on another machine).")
    boolean syntax;

    @CommandLine.Option(names = "--online", description = "Also connect to ZooKeeper and to each batch system, as the daemon does.")
    boolean online;

    @Override
    public Integer call() throws Exception {
      var out = spec.commandLine().getOut();
      if (syntax && online) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--syntax and --online exclude each other");
      }
      SiteConfig config;
      try {
        config = SiteConfigReader.read(file);
      } catch (ConfigException e) {
        return refused(e.problems(), ExitCodes.BAD_INPUT);
      }
      List<String> problems = syntax ? List.of() : SiteChecks.problems(config);
      if (!problems.isEmpty()) {
        return refused(problems, ExitCodes.BAD_INPUT);
      }
      if (online) {
        List<String> unreachable = SiteChecks.online(config);
        if (!unreachable.isEmpty()) {
          return refused(unreachable, ExitCodes.UNAVAILABLE);
        }
      }
      Optional<OperatorSettings.Participation> runtime = syntax ? Optional.empty() : SiteChecks.runtimeParticipation(config);
      if (json) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("file", file.toString());
        r.put("valid", true);
        r.put("warnings", config.warnings());
        r.put("config", config);
        // what an operator set through the API, which the daemon starts with over the file's value
        r.put("setAtRuntime", runtime.map(p -> Map.of("participation", Map.of("level", p.level(), "setAt", p.setAt().toString())))
            .orElse(Map.of()));
        Output.json(out, r);
      } else {
        out.println(file + ": valid");
        var err = spec.commandLine().getErr();
        config.warnings().forEach(w -> err.println(file + ": warning: " + w));
        err.flush();
        Output.table(out, List.of("key", "value"), List.of(
            List.of("site", config.site()),
            List.of("federation", config.federation().name() + " at " + config.federation().zookeeper()),
            List.of("handlers", config.handlers().stream().map(HandlerSettings::name).reduce((a, b) -> a + ", " + b).orElse("")),
            List.of("accounts", config.accounts().isEmpty() ? "(none: no foreign job runs here)" : config.accounts().toString()),
            List.of("exposure threshold", Output.number(config.sharing().exposureThreshold(), 2)),
            List.of("participation", runtime.map(p -> Output.number(p.level(), 0) + " core-seconds per "
                + config.sharing().balancingPeriod().toSeconds() + " s period, set at runtime " + p.setAt() + " (the file says "
                + Output.number(config.sharing().participation(), 0) + "; editing the file's value makes it count again)")
                .orElse(Output.number(config.sharing().participation(), 0) + " core-seconds per "
                + config.sharing().balancingPeriod().toSeconds() + " s period")),
            List.of("policy", config.sharing().policy() + " (" + config.sharing().utility() + ")"),
            List.of("http", (config.http().tls().isPresent() ? "https://" : "http://") + config.http().bind() + ":" + config.http().port()),
            List.of("spool", config.spool().toString())));
      }
      return ExitCodes.OK;
    }

    /** Reports {@code problems}, on stderr or as JSON, and gives {@code code}. */
    private int refused(List<String> problems, int code) {
      if (json) {
        Output.json(spec.commandLine().getOut(), Map.of("file", file.toString(), "valid", false, "problems", problems));
      } else {
        var err = spec.commandLine().getErr();
        problems.forEach(err::println);
        err.println(problems.size() + " problem" + (problems.size() == 1 ? "" : "s") + " in " + file
            + "; the keys are described in docs/site-file.md");
        err.flush();
      }
      return code;
    }
  }
}
