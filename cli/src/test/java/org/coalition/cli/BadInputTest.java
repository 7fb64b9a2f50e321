package org.coalition.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Every command given bad input answers as docs/cli.md promises: the exit code of the kind of
 * mistake, one message on stderr that names what and where, no stack trace, nothing on stdout,
 * and nothing secret echoed.
 */
class BadInputTest {
  @TempDir Path tmp;
  private Path binary;
  private Path badYaml;
  private Path tokenWithSpace;

  @BeforeEach
  void files() throws Exception {
    binary = Files.write(tmp.resolve("site.yaml"), new byte[] {'s', 'i', 't', 'e', ':', ' ', (byte) 0xff, (byte) 0xfe, 0, 1});
    badYaml = Files.writeString(tmp.resolve("bad.yaml"), "site: east\nfederation: [unclosed\n  name: x\n");
    tokenWithSpace = Files.writeString(tmp.resolve("op.token"), "s3cret-part one\nsecond line\n");
    Files.setPosixFilePermissions(tokenWithSpace, PosixFilePermissions.fromString("rw-------"));
  }

  /** Runs {@code args} and checks what every bad input must get; returns stderr. */
  private static String refused(int exit, String expected, String... args) {
    CliRun r = CliRun.of(args);
    String what = "coalition " + String.join(" ", args) + "\n-- stderr:\n" + r.err() + "-- stdout:\n" + r.out();
    assertEquals(exit, r.exit(), what);
    assertTrue(r.err().contains(expected), "expected '" + expected + "' in: " + what);
    assertFalse(r.err().contains("\tat ") || r.err().contains("Exception") || r.err().contains("internal error"), "no stack trace: " + what);
    assertEquals("", r.out(), "nothing on stdout: " + what);
    return r.err();
  }

  @Test
  void siteFilesThatAreNotSiteFilesAreNamedWithWhatIsWrong() {
    refused(ExitCodes.BAD_INPUT, tmp + ": is a directory, not a site file; name the file itself", "config", "check", tmp.toString());
    String garbage = refused(ExitCodes.BAD_INPUT, binary + ":1: not text (byte 7 is not UTF-8); is it a site file?", "config", "check",
        binary.toString());
    assertFalse(garbage.contains("Input length"), garbage);
    refused(ExitCodes.BAD_INPUT, tmp.resolve("none.yaml") + ": no such file (a site file)", "config", "check",
        tmp.resolve("none.yaml").toString());
    refused(ExitCodes.BAD_INPUT, badYaml + ":3: not valid YAML", "config", "check", badYaml.toString());
  }

  @Test
  void aClientCommandWithABrokenSiteFileSaysWhereNotAStackTrace() {
    refused(ExitCodes.BAD_INPUT, "status: " + badYaml + ":3: not valid YAML", "status", "--config", badYaml.toString());
    refused(ExitCodes.BAD_INPUT, "no such file (a site file)", "sites", "--config", tmp.resolve("none.yaml").toString());
    refused(ExitCodes.BAD_INPUT, "is a directory, not a site file", "daemon", "--config", tmp.toString());
  }

  @Test
  void aTokenFileThatIsNotATokenIsRefusedWithoutShowingIt() {
    String err = refused(ExitCodes.BAD_INPUT, tokenWithSpace + ": the operator token file must be printable ASCII without spaces on its"
        + " first line (character 12 is not)", "drain", "--url", "http://127.0.0.1:9", "--token-file", tokenWithSpace.toString());
    assertFalse(err.contains("s3cret") || err.contains("second line"), "the token is never echoed: " + err);
    refused(ExitCodes.BAD_INPUT, "is a directory, not the operator token file", "participation", "set", "5", "--url", "http://127.0.0.1:9",
        "--token-file", tmp.toString());
  }

  @Test
  void numbersOutOfTheirBoundsAreUsageErrorsNotCrashes() {
    refused(ExitCodes.USAGE, "more than the 20,000,000 a run holds in memory: lower --lambda, --period or --rounds", "simulate", "bilb",
        "--sites", "3", "--participation", "10", "--lambda", "100");
    refused(ExitCodes.USAGE, "--participation must be between 0 and 1e15", "simulate", "bilb", "--sites", "3", "--participation", "1e300");
    refused(ExitCodes.USAGE, "LEVEL must be between 0 and 1e15, was 1.0E300", "participation", "set", "1e300", "--url", "http://127.0.0.1:9",
        "--token-file", tokenWithSpace.toString());
    refused(ExitCodes.USAGE, "must be a duration such as 500ms, 30s, 10m, 2h or 1d, was '0'", "demo", "--timeout", "0");
  }

  @Test
  void aMistypedOptionGetsTheClosestOne() {
    refused(ExitCodes.USAGE, "Unknown options: '--jbos', '3' (did you mean --jobs?)", "demo", "--jbos", "3");
    refused(ExitCodes.USAGE, "(did you mean --lambda?)", "simulate", "bilb", "--sites", "2", "--participation", "5", "--lamda=0.3");
  }

  @Test
  void aTraceThatIsNotATraceIsBadInput() {
    refused(ExitCodes.BAD_INPUT, "simulate replay: ", "simulate", "replay", "--trace", tmp.toString());
    refused(ExitCodes.BAD_INPUT, binary + ":1:", "simulate", "replay", "--trace", binary.toString(), "--cores", "8");
  }

  /** What `coalition --help` lists of each command is a whole sentence, not the first line of a longer one. */
  @Test
  void everyCommandsSummaryIsWhole() {
    List<String> cut = new ArrayList<>();
    walk(CoalitionCommand.commandLine(), cut);
    assertEquals(List.of(), cut);
  }

  private static void walk(CommandLine cli, List<String> cut) {
    for (CommandLine sub : cli.getSubcommands().values()) {
      CommandLine.Model.UsageMessageSpec usage = sub.getCommandSpec().usageMessage();
      String[] lines = usage.header().length > 0 ? usage.header() : usage.description();
      String summary = lines.length == 0 ? "" : lines[0].strip();
      if (!summary.endsWith(".") && !summary.endsWith(".)")) {
        cut.add(sub.getCommandSpec().qualifiedName() + ": '" + summary + "'");
      }
      walk(sub, cut);
    }
  }
}
