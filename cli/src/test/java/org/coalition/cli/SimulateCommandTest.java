package org.coalition.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SimulateCommandTest {
  @TempDir static Path dir;
  static Path trace;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  /** A small SWF log: 400 jobs of 20 users over three days, 64 processors. */
  @BeforeAll
  static void writeTrace() throws Exception {
    SplittableRandom random = new SplittableRandom(5);
    List<String> lines = new ArrayList<>(List.of("; Version: 2.2", "; MaxProcs: 64"));
    double t = 0;
    for (int i = 1; i <= 400; i++) {
      t += random.nextDouble() * 600;
      int procs = 1 + random.nextInt(8);
      lines.add(String.format(Locale.ROOT, "%d %.0f 0 %d %d -1 -1 %d -1 -1 1 %d -1 -1 -1 -1 -1 -1",
          i, t, 60 + random.nextInt(7200), procs, procs, random.nextInt(20)));
    }
    trace = dir.resolve("small.swf");
    Files.write(trace, lines);
  }

  private int run(String... args) {
    CommandLine cli = CoalitionCommand.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  private JsonNode json() throws Exception {
    return new ObjectMapper().readTree(out.toString());
  }

  @Test
  void bilbPrintsTheIssuesJson() throws Exception {
    assertEquals(ExitCodes.OK, run("simulate", "bilb", "--sites", "3", "--participation", "5", "--rounds", "20", "--json",
        "--overloaded-alpha", "3", "--overloaded-beta", "3"), err::toString);
    JsonNode j = json();
    assertEquals("bilb", j.get("balancer").asText());
    assertEquals(3, j.get("sites").asInt());
    assertEquals(20, j.get("rounds").asInt());
    assertTrue(j.get("typical").has("score") && j.get("typical").has("std"), j::toString);
    assertTrue(j.get("overloaded").has("score"), j::toString);
    assertEquals(3, j.get("perSite").size());
    assertTrue(err.toString().contains("100% rounds simulated"), "progress on stderr: " + err);
  }

  @Test
  void bilbWithoutOverloadHasNullAndTheSameSeedTheSameOutput() throws Exception {
    assertEquals(ExitCodes.OK, run("simulate", "bilb", "--sites", "2", "--participation", "1000", "--rounds", "10",
        "--balancer", "averaging", "--json", "--no-progress", "--seed", "7"));
    String first = out.toString();
    assertTrue(json().get("overloaded").isNull());
    assertEquals("", err.toString());
    out.getBuffer().setLength(0);
    run("simulate", "bilb", "--sites", "2", "--participation", "1000", "--rounds", "10", "--balancer", "averaging",
        "--json", "--no-progress", "--seed", "7");
    assertEquals(first, out.toString());
  }

  @Test
  void tracesPrintsScoresAndUnfairness() throws Exception {
    assertEquals(ExitCodes.OK, run("simulate", "traces", "--trace", trace.toString(), "--sites", "3", "--periods", "2",
        "--scenario", "2", "--json", "--no-progress"), err::toString);
    JsonNode j = json();
    assertEquals(2, j.get("cases").asInt());
    assertEquals(5, j.get("scores").size());
    assertTrue(j.get("meanUnfairness").has("SIMPL_DIRECT"), j::toString);
    assertEquals(64, j.get("traces").get(0).get("totalCores").asInt());
  }

  @Test
  void replayPrintsATableAndAPlot() throws Exception {
    Path plot = dir.resolve("waits.svg");
    assertEquals(ExitCodes.OK, run("simulate", "replay", "--trace", trace.toString(), "--sites", "4", "--policy",
        "fairshare", "--plot", plot.toString(), "--no-progress"), err::toString);
    assertTrue(out.toString().contains("400 jobs"), out::toString);
    assertTrue(out.toString().contains("events/s"), out::toString);
    assertTrue(Files.readString(plot).startsWith("<?xml") && Files.readString(plot).contains("<svg"), "an SVG document");
  }

  @Test
  void replayJsonIsTheResultRecordWithItsRate() throws Exception {
    assertEquals(ExitCodes.OK, run("simulate", "replay", "--trace", trace.toString(), "--sites", "4", "--json", "--no-progress"),
        err::toString);
    JsonNode j = json();
    List<String> fields = new ArrayList<>();
    j.fieldNames().forEachRemaining(fields::add);
    assertEquals(List.of("trace", "policy", "sites", "jobs", "clipped", "events", "seconds", "eventsPerSecond"), fields, j::toString);
    assertEquals(400, j.get("jobs").asLong());
    assertEquals(4, j.get("sites").size());
    assertEquals(j.get("events").asDouble() / j.get("seconds").asDouble(), j.get("eventsPerSecond").asDouble(), 1e-6 * j.get("eventsPerSecond")
        .asDouble());
  }

  /** #51, problem 10: the question a site asks, "what would joining do for my site?", as a table, JSON and a captioned plot. */
  @Test
  void replayPerSiteComparesEachSiteAloneAndFederated() throws Exception {
    Path plot = dir.resolve("per-site.svg");
    assertEquals(ExitCodes.OK, run("simulate", "replay", "--trace", trace.toString(), "--sites", "4", "--per-site", "--no-progress",
        "--plot", plot.toString()), err::toString);
    assertTrue(out.toString().contains("site  cores  jobs  wait alone (h)  wait federated (h)  flow alone (h)  flow federated (h)  its work run"
        + " elsewhere  ran for others"), out::toString);
    String svg = Files.readString(plot);
    assertTrue(svg.contains("alone and federated") && svg.contains(">hours<") && svg.contains("The mean flow time (wait and run)"), svg);
    out.getBuffer().setLength(0);
    assertEquals(ExitCodes.OK, run("simulate", "replay", "--trace", trace.toString(), "--sites", "4", "--per-site", "--json", "--no-progress"));
    JsonNode j = new ObjectMapper().readTree(out.toString());
    assertEquals(4, j.get("perSite").size());
    JsonNode first = j.get("perSite").get(0);
    assertTrue(first.get("alone").has("meanFlow") && first.get("federated").has("meanWait") && first.has("workElsewhere"), first::toString);
  }

  /** #52: learning gave the scores of fixed levels, without a word of where the levels went. */
  @Test
  void bilbLearningPrintsAndPlotsEachSitesLevelRoundByRound() throws Exception {
    Path plot = dir.resolve("levels.svg");
    assertEquals(ExitCodes.OK, run("simulate", "bilb", "--sites", "2", "--participation", "2", "--rounds", "60", "--learning", "0.5",
        "--no-progress", "--plot-levels", plot.toString()), err::toString);
    String text = out.toString();
    assertTrue(text.contains("declared levels as learning moved them (bounded to 1..1000), at the end of round:"), text);
    assertTrue(text.lines().anyMatch(l -> l.matches("0\\s+2\\.00\\s+2\\.00")), () -> "round 0 starts at the given level: " + text);
    assertTrue(text.contains("site 0: from 2.00, first at the bound 1000 after round "), () -> "alike sites climb to the bound: " + text);
    String svg = Files.readString(plot);
    assertTrue(svg.contains("declared participation level per site") && svg.contains("level l (work units)") && svg.contains("round")
        && svg.contains("R = F / F_alone bounded to [1/2, 2]"), "title, axes with units and caption as text");
    out.getBuffer().setLength(0);
    assertEquals(ExitCodes.OK, run("simulate", "bilb", "--sites", "2", "--participation", "2", "--rounds", "30", "--learning", "0.5",
        "--json", "--no-progress"), err::toString);
    JsonNode levels = json().get("levels");
    assertEquals(1, levels.get("step").asInt());
    assertEquals(30, levels.get("perSite").get(1).size(), "the start and after each round but the last");
    assertEquals(2.0, levels.get("perSite").get(1).get(0).asDouble());
    out.getBuffer().setLength(0);
    assertEquals(ExitCodes.USAGE, run("simulate", "bilb", "--sites", "2", "--participation", "2", "--plot-levels", plot.toString()));
    assertTrue(err.toString().contains("--plot-levels draws how learning moved the levels: give --learning SIGMA too"), err::toString);
  }

  @Test
  void contractsPrintsEachSitesWaitsTheirJsonAndAPlot() throws Exception {
    Path plot = dir.resolve("contracts.png");
    assertEquals(ExitCodes.OK, run("simulate", "contracts", "--trace", trace.toString(), "--sites", "4", "--days", "2", "--cores", "16",
        "--no-progress", "--plot", plot.toString()), err::toString);
    assertTrue(out.toString().startsWith("small.swf: 4 sites, 2 days, 16 cores each, blocks of 2 cores, 1 h slots: "), out::toString);
    assertTrue(out.toString().contains("wait contracts (h)"), out::toString);
    assertTrue(out.toString().contains("worse off than alone (mean wait over 1.01 x alone + 1 s): "), out::toString);
    assertTrue(Files.size(plot) > 1000, "the plot was written");
    out.getBuffer().setLength(0);
    assertEquals(ExitCodes.OK, run("simulate", "contracts", "--trace", trace.toString(), "--sites", "4", "--days", "2", "--json"),
        err::toString);
    JsonNode j = json();
    assertEquals(4, j.get("result").get("perSite").size());
    assertEquals(64, j.get("config").get("cores").asInt(), "the log's MaxProcs");
    assertEquals(8, j.get("config").get("blockCores").asInt());
    assertTrue(j.get("result").get("perSite").get(0).has("waitContracts"));
    assertTrue(j.has("worseOffContracts"));
    err.getBuffer().setLength(0);
    assertEquals(ExitCodes.USAGE, run("simulate", "contracts", "--trace", trace.toString(), "--slot-hours", "5"));
    assertTrue(err.toString().contains("--slot-hours must divide 24 (1, 2, 3, 4, 6, 8, 12 or 24), was 5"), err::toString);
  }

  /** #51, problem 10: a saturated BILB model scored every site 0 without a word. */
  @Test
  void aSaturatedBilbModelSaysSo() {
    assertEquals(ExitCodes.OK, run("simulate", "bilb", "--sites", "3", "--participation", "100", "--lambda", "50", "--rounds", "3",
        "--no-progress"), err::toString);
    assertTrue(err.toString().contains("warning: every score is 0 to three decimals: balancing changed next to nothing for any site in any round"),
        err::toString);
  }

  @Test
  void badArgumentsAndFilesGiveOneLineAndAnExitCode() throws Exception {
    Path broken = dir.resolve("broken.swf");
    Files.write(broken, List.of("; MaxProcs: 8", "1 0 0 10 1 -1 -1 1 -1 -1 1 1 -1 -1 -1 -1 -1 -1", "2 5 0 x 1"));
    record Case(int code, String message, String[] args) {}
    List<Case> cases = List.of(
        new Case(ExitCodes.USAGE, "--sites must be between 1 and 10000", new String[] {"simulate", "bilb", "--sites", "0", "--participation", "1"}),
        new Case(ExitCodes.USAGE, "'x' is not an int", new String[] {"simulate", "bilb", "--sites", "x", "--participation", "1"}),
        new Case(ExitCodes.USAGE, "Missing required option: '--participation", new String[] {"simulate", "bilb", "--sites", "2"}),
        new Case(ExitCodes.USAGE, "an overloaded site needs both",
            new String[] {"simulate", "bilb", "--sites", "2", "--participation", "1", "--overloaded-alpha", "3"}),
        new Case(ExitCodes.USAGE, "must end in .svg or .png", new String[] {"simulate", "bilb", "--sites", "2", "--participation", "1", "--plot", "x.jpg"}),
        new Case(ExitCodes.USAGE, "--scenario must be 1, 2, 3 or all", new String[] {"simulate", "traces", "--trace", trace.toString(), "--scenario", "x"}),
        new Case(ExitCodes.USAGE, "--sites must be between 2 and 12",
            new String[] {"simulate", "traces", "--trace", trace.toString(), "--scenario", "1", "--sites", "13"}),
        new Case(ExitCodes.USAGE, "expected one of", new String[] {"simulate", "replay", "--trace", trace.toString(), "--policy", "FIFO"}),
        new Case(ExitCodes.USAGE, "name what to simulate", new String[] {"simulate"}),
        new Case(ExitCodes.BAD_INPUT, "broken.swf:3: expected 18 fields, found 5",
            new String[] {"simulate", "replay", "--trace", broken.toString(), "--no-progress"}),
        new Case(ExitCodes.BAD_INPUT, "trace file not found",
            new String[] {"simulate", "traces", "--trace", dir.resolve("none.swf").toString(), "--scenario", "1"}));
    for (Case c : cases) {
      out.getBuffer().setLength(0);
      err.getBuffer().setLength(0);
      assertEquals(c.code(), run(c.args()), () -> String.join(" ", c.args()) + ": " + err);
      String message = err.toString().strip();
      assertTrue(message.contains(c.message()), () -> "expected '" + c.message() + "' in: " + message);
      assertEquals(1, message.lines().count(), () -> "one line: " + message);
      assertEquals("", out.toString(), "nothing on stdout");
    }
  }
}
