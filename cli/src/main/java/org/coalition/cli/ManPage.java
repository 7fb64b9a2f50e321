package org.coalition.cli;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The manual page {@code coalition(1)} in troff's man macros, written from the command line's
 * own model: every command with its synopsis, description and options, so the page cannot
 * drift from the tool. The fixed sections (exit status, files, environment) come from the same
 * facts {@code docs/cli.md} states. The Debian package installs it as
 * {@code /usr/share/man/man1/coalition.1.gz}.
 */
final class ManPage {
  private final StringBuilder out = new StringBuilder();

  private ManPage() {}

  /** The whole page for the command tree rooted at {@code root}, dated {@code date}. */
  static String of(CommandLine root, String version, LocalDate date) {
    ManPage page = new ManPage();
    page.write(root, version, date);
    return page.out.toString();
  }

  private void write(CommandLine root, String version, LocalDate date) {
    line(".TH COALITION 1 " + date + " " + quoted("coalition " + version) + " " + quoted("Coalition Manual"));
    line(".SH NAME");
    text("coalition - fair, money-free capacity sharing between HPC clusters");
    line(".SH SYNOPSIS");
    line(".B coalition");
    line(".I COMMAND");
    line("[\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]");
    line(".SH DESCRIPTION");
    text("One daemon per cluster watches its batch system, publishes jobs its users cannot run soon to the federation's queue in"
        + " ZooKeeper, and runs other sites' jobs on idle capacity as pilot jobs; users keep submitting with their batch system's"
        + " own commands. Which site is served first follows contribution (DirectContr); how much foreign load a site takes or"
        + " sends is bounded by its participation level (BILB). This page lists every command; the guides are in"
        + " /usr/share/doc/coalition.");
    line(".SH COMMANDS");
    for (CommandLine sub : root.getSubcommands().values()) {
      command(sub);
    }
    line(".SH EXIT STATUS");
    exit(ExitCodes.OK, "The command did what was asked.");
    exit(ExitCodes.INTERNAL, "An unexpected failure inside Coalition: a bug to report, with the stack trace it printed.");
    exit(ExitCodes.USAGE, "The command line was wrong; the message names what, and --help shows the syntax.");
    exit(ExitCodes.UNAVAILABLE, "A system the command needs did not answer (ZooKeeper, the daemon, a batch system).");
    exit(ExitCodes.BAD_INPUT, "An input file is missing or malformed; the message names the file and line.");
    line(".SH ENVIRONMENT");
    tagged("COALITION_JAVA_OPTS", "Options for the Java virtual machine, such as -Xmx4g.");
    tagged("DRMAA_LIBRARY_PATH", "Grid Engine's libdrmaa; the daemon of a Grid Engine site preloads it when the JVM starts.");
    tagged("JAVA_HOME", "The Java installation to use instead of the system's java.");
    line(".SH FILES");
    tagged("/etc/coalition/SITE.yaml", "The site file of site SITE, read by coalition@SITE.service.");
    tagged("/var/lib/coalition/SITE", "The site's spool: the pilot journal, the outputs of runs made here, jobs' scratch folders.");
    tagged("/lib/systemd/system/coalition@.service", "The daemon's unit; the instance name is the site.");
    tagged("/usr/share/doc/coalition", "The operator's guide (operations.md), the site file's keys (site-file.md), examples.");
    line(".SH SEE ALSO");
    line(".BR sbatch (1),");
    line(".BR systemctl (1),");
    line(".BR systemd.exec (5)");
  }

  private void command(CommandLine cli) {
    CommandSpec spec = cli.getCommandSpec();
    if (spec.usageMessage().hidden() || spec.userObject() instanceof CommandLine.HelpCommand) {
      return;
    }
    line(".SS " + quoted(spec.qualifiedName()));
    line(".B " + escape(spec.qualifiedName()));
    List<String> synopsis = new ArrayList<>();
    for (OptionSpec o : spec.options()) {
      if (!o.hidden() && !isStandard(o)) {
        String one = "\\fB" + escape(o.longestName()) + "\\fR" + (o.arity().max() > 0 ? "=\\fI" + escape(o.paramLabel()) + "\\fR" : "");
        synopsis.add(o.required() ? one : "[" + one + "]");
      }
    }
    for (PositionalParamSpec p : spec.positionalParameters()) {
      if (!p.hidden()) {
        String one = "\\fI" + escape(p.paramLabel()) + "\\fR" + (p.arity().max() > 1 ? "..." : "");
        synopsis.add(p.arity().min() > 0 ? one : "[" + one + "]");
      }
    }
    if (!cli.getSubcommands().isEmpty()) {
      synopsis.add("\\fICOMMAND\\fR");
    }
    if (!synopsis.isEmpty()) {
      line(String.join(" ", synopsis));
    }
    line(".PP");
    String[] description = spec.usageMessage().description();
    text(String.join(" ", description.length > 0 ? description : spec.usageMessage().header()));
    for (PositionalParamSpec p : spec.positionalParameters()) {
      if (!p.hidden()) {
        argument("\\fI" + escape(p.paramLabel()) + "\\fR", p);
      }
    }
    for (OptionSpec o : spec.options()) {
      if (!o.hidden() && !isStandard(o)) {
        String names = String.join(", ", List.of(o.names()).stream().map(n -> "\\fB" + escape(n) + "\\fR").toList());
        argument(names + (o.arity().max() > 0 ? "=\\fI" + escape(o.paramLabel()) + "\\fR" : ""), o);
      }
    }
    for (CommandLine sub : cli.getSubcommands().values()) {
      command(sub);
    }
  }

  /** {@code --help} and {@code --version} are on every command; the page says so once, not per command. */
  private static boolean isStandard(OptionSpec o) {
    return o.usageHelp() || o.versionHelp();
  }

  private void argument(String term, ArgSpec arg) {
    line(".TP");
    line(term);
    String description = String.join(" ", arg.description());
    String fallback = arg.defaultValueString();
    description = description.replace("${DEFAULT-VALUE}", fallback == null ? "" : fallback)
        .replace("${COMPLETION-CANDIDATES}", arg.completionCandidates() == null ? "" : String.join(", ", arg.completionCandidates()));
    text(description);
  }

  private void exit(int code, String meaning) {
    tagged(Integer.toString(code), meaning);
  }

  private void tagged(String tag, String meaning) {
    line(".TP");
    line(".B " + escape(tag));
    text(meaning);
  }

  /** Running text: escaped, one sentence's words per line as man's source prefers. */
  private void text(String words) {
    line(escape(words.strip()));
  }

  private void line(String troff) {
    out.append(troff).append('\n');
  }

  private static String quoted(String words) {
    return "\"" + words.replace("\"", "\\(dq") + "\"";
  }

  /**
   * Text made safe for troff: a backslash printed as itself, hyphens as minus signs where they
   * start an option (so they can be searched and pasted), and a line that would start with a
   * control character ('.' or an apostrophe) made plain by a zero-width escape.
   */
  static String escape(String text) {
    String escaped = text.replace("\\", "\\e").replace("-", "\\-");
    if (escaped.startsWith(".") || escaped.startsWith("'")) {
      escaped = "\\&" + escaped;
    }
    return escaped.replace("\n.", "\n\\&.").replace("\n'", "\n\\&'");
  }
}
