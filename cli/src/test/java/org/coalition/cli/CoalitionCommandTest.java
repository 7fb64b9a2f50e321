package org.coalition.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CoalitionCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cli = CoalitionCommand.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  @Test
  void helpListsEverySubcommand() {
    assertEquals(ExitCodes.OK, run("--help"));
    for (String name : new String[] {"daemon", "demo", "simulate", "status", "participation", "help"}) {
      assertTrue(out.toString().contains(name), () -> name + " missing from:\n" + out);
    }
  }

  @Test
  void configCheckPrintsEveryExampleSiteFileAsJson() throws Exception {
    ObjectMapper json = new ObjectMapper();
    try (var files = Files.list(Path.of("..", "docs", "examples"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
        CliRun r = CliRun.of("config", "check", "--syntax", file.toString(), "--json");
        assertEquals(ExitCodes.OK, r.exit(), file + ": " + r.err());
        var tree = json.readTree(r.out());
        assertTrue(tree.path("valid").asBoolean(), r.out());
        assertEquals(0, tree.path("warnings").size(), file + ": every example maps each home site to its own account: " + r.out());
        assertEquals("15s", tree.path("config").path("federation").path("sessionTimeout").asText(), file + ": " + r.out());
        assertTrue(tree.path("config").path("handlers").get(0).path("name").isTextual(), r.out());
      }
    }
    CliRun ge = CliRun.of("config", "check", "--syntax", "../docs/examples/site-gridengine.yaml", "--json");
    var handler = json.readTree(ge.out()).path("config").path("handlers").get(0);
    assertEquals("/usr/lib/gridengine-drmaa/lib/libdrmaa.so.1.0", handler.path("library").asText(), ge.out());
    assertEquals("1h", handler.path("defaultTimeLimit").asText(), ge.out());
    assertTrue(json.readTree(CliRun.of("config", "check", "--syntax", "../docs/examples/site-local.yaml", "--json").out()).path("config")
        .path("http").path("tls").isNull(), "an empty Optional is null");
  }

  @Test
  void configCheckWarnsWhenOneAccountRunsSeveralHomesJobs() throws Exception {
    Path shared = Files.createTempFile("shared", ".yaml");
    Files.writeString(shared, Files.readString(Path.of("..", "docs", "examples", "site-slurm.yaml")).replace("west: fed-west", "\"*\": fed-south"));
    CliRun r = CliRun.of("config", "check", "--syntax", shared.toString());
    assertEquals(ExitCodes.OK, r.exit(), "a warning, not an error: " + r.err());
    assertTrue(r.err().contains("warning: accounts: 'fed-south' runs the jobs of every other site"), r.err());
    Files.delete(shared);
  }

  /** The bash completion script comes from the command line itself: it knows every command, and bash reads it. */
  @Test
  void theBashCompletionScriptKnowsEveryCommandAndParses() throws Exception {
    CliRun r = CliRun.of("completion", "bash");
    assertEquals(ExitCodes.OK, r.exit(), r.err());
    for (String word : new String[] {"trial", "federation", "list", "config", "check", "--syntax", "--online", "participation"}) {
      assertTrue(r.out().contains(word), word + " missing from the completion script");
    }
    Path script = Files.createTempFile("coalition-completion", ".bash");
    Files.writeString(script, r.out());
    Process bash = new ProcessBuilder("bash", "-n", script.toString()).redirectErrorStream(true).start();
    assertEquals(0, bash.waitFor(), new String(bash.getInputStream().readAllBytes()));
    Files.delete(script);
    assertEquals(ExitCodes.USAGE, CliRun.of("completion", "fish").exit());
  }

  /**
   * The manual page comes from the command line too: every command and every option a person can
   * type is on it, and man's formatter reads it without a warning.
   */
  @Test
  void theManualPageNamesEveryCommandAndOptionAndFormatsCleanly() throws Exception {
    CliRun r = CliRun.of("manual");
    assertEquals(ExitCodes.OK, r.exit(), r.err());
    assertTrue(r.out().startsWith(".TH COALITION 1 "), r.out());
    walk(CoalitionCommand.commandLine(), r.out());
    Process groff = new ProcessBuilder("groff", "-man", "-Tutf8", "-ww", "-z").redirectErrorStream(true).start();
    groff.getOutputStream().write(r.out().getBytes(StandardCharsets.UTF_8));
    groff.getOutputStream().close();
    String warnings = new String(groff.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, groff.waitFor(), warnings);
    assertEquals("", warnings, "groff's warnings on the page");
  }

  private static void walk(CommandLine cli, String page) {
    var spec = cli.getCommandSpec();
    if (spec.userObject() instanceof CommandLine.HelpCommand) {
      return;
    }
    if (spec.parent() != null) {
      assertTrue(page.contains(".SS \"" + spec.qualifiedName() + "\""), spec.qualifiedName() + " has no section");
    }
    for (var option : spec.options()) {
      if (!option.hidden() && !option.usageHelp() && !option.versionHelp()) {
        assertTrue(page.contains("\\fB" + ManPage.escape(option.longestName()) + "\\fR"),
            spec.qualifiedName() + " " + option.longestName() + " missing from the page");
      }
    }
    cli.getSubcommands().values().forEach(sub -> walk(sub, page));
  }

  @Test
  void noArgumentsPrintsHelp() {
    assertEquals(ExitCodes.OK, run());
    assertTrue(out.toString().startsWith("Usage: coalition"), out::toString);
  }

  @Test
  void aClientCommandWithNoDaemonSaysWhereItLooked() {
    assertEquals(ExitCodes.UNAVAILABLE, run("status", "--url", "http://127.0.0.1:9"));
    assertTrue(err.toString().contains("no daemon answers at http://127.0.0.1:9/"), err::toString);
    assertEquals("", out.toString(), "nothing on stdout: scripts must not mistake it for output");
  }

  @Test
  void unknownSubcommandIsAUsageErrorWithASuggestion() {
    assertEquals(ExitCodes.USAGE, run("simulat"));
    assertTrue(err.toString().lines().count() == 1, () -> "one line: " + err);
    assertTrue(err.toString().contains("simulate"), err::toString);
  }

  /** #51, problem 11: {@code coalition contract --help} printed the top level's help and exited 0, as if contract were a command. */
  @Test
  void aMistypedCommandWithHelpIsStillAUsageError() {
    assertEquals(ExitCodes.USAGE, run("contract", "--help"));
    assertTrue(err.toString().startsWith("coalition: Unmatched argument at index 0: 'contract'"), err::toString);
    assertEquals("", out.toString(), "no help printed: nothing suggests the command exists");
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    assertEquals(ExitCodes.USAGE, run("config", "chek", "--help"));
    assertTrue(err.toString().contains("coalition config: ") && err.toString().contains("'chek'"), err::toString);
  }
}
