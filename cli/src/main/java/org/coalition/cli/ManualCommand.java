package org.coalition.cli;

import java.io.PrintWriter;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code coalition manual}: the manual page {@code coalition(1)} in troff, written from the
 * command line itself ({@link ManPage}). The Debian package installs it; from a checkout,
 * {@code coalition manual | man -l -} reads it.
 */
@Command(name = "manual", mixinStandardHelpOptions = true,
    header = "Print the manual page coalition(1) in troff, made from the command line itself.",
    description = {"Print the manual page coalition(1) in troff, made from the command line itself: every command with its",
        "options. Read it with: coalition manual | man -l -  (the Debian package installs it: man coalition). The page's date is",
        "SOURCE_DATE_EPOCH's when set (reproducible builds), else today's."})
final class ManualCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    String[] version = new VersionProvider().getVersion();
    PrintWriter out = spec.commandLine().getOut();
    out.print(ManPage.of(spec.root().commandLine(), version[0].substring("coalition ".length()), date()));
    out.flush();
    return ExitCodes.OK;
  }

  private static LocalDate date() {
    String epoch = System.getenv("SOURCE_DATE_EPOCH");
    if (epoch != null && epoch.matches("[0-9]{1,12}")) {
      return LocalDate.ofInstant(Instant.ofEpochSecond(Long.parseLong(epoch)), ZoneOffset.UTC);
    }
    return LocalDate.now(ZoneOffset.UTC);
  }
}
