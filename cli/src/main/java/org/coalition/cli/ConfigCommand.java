package org.coalition.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.coalition.config.ConfigException;
import org.coalition.config.SiteConfig;
import org.coalition.config.SiteConfigReader;
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
      description = {"Read a site file as the daemon would: every problem with its line, exit 4 if there is one;",
          "otherwise a summary of what the daemon would do."})
  static final class Check implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The site file (YAML).")
    Path file;

    @CommandLine.Option(names = "--json", description = "Print the result as JSON on stdout (for scripts).")
    boolean json;

    @Override
    public Integer call() throws Exception {
      var out = spec.commandLine().getOut();
      SiteConfig config;
      try {
        config = SiteConfigReader.read(file);
      } catch (ConfigException e) {
        if (json) {
          Output.json(out, Map.of("file", file.toString(), "valid", false, "problems", e.problems()));
        } else {
          var err = spec.commandLine().getErr();
          e.problems().forEach(err::println);
          err.println(e.problems().size() + " problem" + (e.problems().size() == 1 ? "" : "s") + " in " + file
              + "; the keys are described in docs/site-file.md");
          err.flush();
        }
        return ExitCodes.BAD_INPUT;
      }
      if (json) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("file", file.toString());
        r.put("valid", true);
        r.put("warnings", config.warnings());
        r.put("config", config);
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
            List.of("participation", Output.number(config.sharing().participation(), 0) + " core-seconds per "
                + config.sharing().balancingPeriod().toSeconds() + " s period"),
            List.of("policy", config.sharing().policy() + " (" + config.sharing().utility() + ")"),
            List.of("http", (config.http().tls().isPresent() ? "https://" : "http://") + config.http().bind() + ":" + config.http().port()),
            List.of("spool", config.spool().toString())));
      }
      return ExitCodes.OK;
    }
  }
}
