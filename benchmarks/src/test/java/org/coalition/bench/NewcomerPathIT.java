package org.coalition.bench;

import static org.coalition.testbed.Eventually.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.coalition.testbed.Command;
import org.coalition.testbed.Ports;
import org.coalition.testbed.Screenshots;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * #51: a newcomer's first hour, from a fresh clone of this repository, timed and printed
 * ({@code [bench] newcomer} lines, never asserted): the README's first command
 * ({@code bin/coalition demo --serve}, which builds the tool on first use), north's dashboard in
 * Debian's headless Chromium once jobs move (a screenshot, checked for flows with jobs in them and
 * for not being blank), Ctrl-C, and {@code trial} on both shipped examples: the local one runs,
 * the Slurm one names what this machine lacks in the example's own lines. Needs Chromium, which
 * {@code testbed/up tools} installs: tagged testbed, so .ci/run runs it once that is done.
 */
@Tag("testbed")
class NewcomerPathIT {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path DRIVER = Path.of("/usr/bin/chromedriver");
  private static final Path SCREENSHOTS = Path.of("target", "newcomer");

  @TempDir Path tmp;
  private final List<Process> started = new ArrayList<>();
  private final HttpClient http = HttpClient.newHttpClient();

  @AfterEach
  void stopWhatIsLeft() {
    started.forEach(p -> p.descendants().forEach(ProcessHandle::destroyForcibly));
    started.forEach(Process::destroyForcibly);
  }

  /** {@code bin/coalition ARGS} in {@code clone}, with SIGINT's default put back (perl), its output in {@code log}. */
  private Process coalition(Path clone, Path log, String... args) throws IOException {
    List<String> argv = new ArrayList<>(List.of("perl", "-e", "$SIG{INT}='DEFAULT'; exec @ARGV", clone.resolve("bin/coalition").toString()));
    argv.addAll(List.of(args));
    Process p = new ProcessBuilder(argv).directory(clone.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    started.add(p);
    return p;
  }

  @Test
  void aFreshCloneShowsWorkMovingInABrowserAndTriesBothShippedExamples() throws Exception {
    assertTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER), "Chromium and its driver: testbed/up tools installs them");
    Path repo = Path.of("..").toAbsolutePath().normalize();
    Path clone = tmp.resolve("coalition");
    long began = System.nanoTime();
    Command.of(Path.of("/usr/bin/git"), "clone", "--quiet", repo.toString(), clone.toString()).timeout(Duration.ofMinutes(5)).run()
        .requireSuccess();
    double cloned = seconds(began);

    int port = threePorts();
    Path demoLog = tmp.resolve("demo.log");
    long demoBegan = System.nanoTime();
    Process demo = coalition(clone, demoLog, "demo", "--serve", "--port", Integer.toString(port));
    waitFor("the demo to start (its log: " + demoLog + ")", Duration.ofMinutes(15), () -> read(demoLog).contains("coalition demo: an embedded"));
    double built = seconds(demoBegan);
    waitFor("the dashboards", Duration.ofMinutes(2), () -> read(demoLog).contains("the sites' dashboards"));
    double serving = seconds(demoBegan);
    waitFor("a job of north's run elsewhere, on north's API", Duration.ofMinutes(2), () -> get(port, "v1/flows").contains("\"jobs\":"));
    double moving = seconds(demoBegan);

    List<String> flows = browse(port);
    double shown = seconds(demoBegan);
    assertTrue(flows.stream().anyMatch(r -> r.matches("north (south|west) [1-9][0-9]* .*")), "flows of north's jobs with jobs in them: " + flows);

    new ProcessBuilder("kill", "-INT", Long.toString(demo.pid())).start().waitFor();
    assertTrue(demo.waitFor(60, TimeUnit.SECONDS), "the demo stops on Ctrl-C");
    String demoOut = read(demoLog);
    assertTrue(!demoOut.contains("Exception") && !demoOut.contains("internal error"), demoOut);

    Path trialLog = tmp.resolve("trial-local.log");
    int trialPort = Ports.free();
    long trialBegan = System.nanoTime();
    Process trial = coalition(clone, trialLog, "trial", "docs/examples/site-local.yaml", "--port", Integer.toString(trialPort));
    waitFor("the local example's trial to be ready (its log: " + trialLog + ")", Duration.ofMinutes(2),
        () -> get(trialPort, "v1/health/ready").contains("\"ok\":true"));
    double trialReady = seconds(trialBegan);
    trial.destroy();
    assertTrue(trial.waitFor(60, TimeUnit.SECONDS), "the trial stops on SIGTERM");

    long slurmBegan = System.nanoTime();
    Path slurmLog = tmp.resolve("trial-slurm.log");
    Process slurm = coalition(clone, slurmLog, "trial", "docs/examples/site-slurm.yaml");
    assertTrue(slurm.waitFor(2, TimeUnit.MINUTES), "the Slurm example's trial answers");
    double slurmAnswered = seconds(slurmBegan);
    assertEquals(4, slurm.exitValue(), read(slurmLog));
    assertTrue(read(slurmLog).startsWith("coalition trial: docs/examples/site-slurm.yaml:17: handlers[0].jwt-key: "), read(slurmLog));

    System.out.printf(Locale.ROOT, "[bench] newcomer: git clone %.1f s; bin/coalition demo --serve: built and started %.1f s, dashboards"
        + " served %.1f s, a job of north's run elsewhere %.1f s, shown in Chromium with its flows %.1f s (screenshot %s)%n", cloned, built,
        serving, moving, shown, SCREENSHOTS.resolve("north-dashboard.png").toAbsolutePath());
    System.out.printf(Locale.ROOT, "[bench] newcomer: trial docs/examples/site-local.yaml ready in %.1f s; trial docs/examples/site-slurm.yaml"
        + " named what this machine lacks in %.1f s (exit 4)%n", trialReady, slurmAnswered);
  }

  /** North's dashboard in headless Chromium, once its flows table shows jobs: the table's rows; a screenshot is kept. */
  @SuppressWarnings("unchecked")
  private List<String> browse(int port) throws Exception {
    Files.createDirectories(SCREENSHOTS);
    ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile())
        .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1300,1700");
    ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile()).usingPort(Ports.free()).build();
    WebDriver browser = new ChromeDriver(service, options);
    try {
      browser.get("http://127.0.0.1:" + port + "/");
      WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(90));
      String script = "return Array.from(document.querySelectorAll('#flows tbody tr')).map(r => Array.from(r.cells).map(c => c.textContent"
          + ".trim()).join(' '));";
      wait.until(b -> ((List<String>) ((JavascriptExecutor) b).executeScript(script)).stream().anyMatch(r -> r.matches("north \\S+ [1-9].*")));
      wait.until(b -> b.findElement(By.id("summary")).getText().startsWith("3 of 3 sites live"));
      Thread.sleep(6_000); // one more refresh: the ledger's chart has two points to draw between
      List<String> flows = new ArrayList<>((List<String>) ((JavascriptExecutor) browser).executeScript(script));
      byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
      Files.write(SCREENSHOTS.resolve("north-dashboard.png"), png);
      assertTrue(Screenshots.colours(png) >= Screenshots.MIN_COLOURS, "the screenshot is not blank");
      return flows;
    } finally {
      browser.quit();
    }
  }

  private String get(int port, String path) {
    try {
      return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/" + path)).build(),
          HttpResponse.BodyHandlers.ofString()).body();
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  private static String read(Path log) {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "";
    }
  }

  private static double seconds(long since) {
    return (System.nanoTime() - since) / 1e9;
  }

  /** The first of three ports in a row nothing listens on, the first held for this JVM (the demo serves three sites). */
  private static int threePorts() throws IOException {
    for (int attempt = 0; attempt < 100; attempt++) {
      int first = Ports.free();
      if (first + 2 <= Ports.LAST && listenable(first + 1) && listenable(first + 2)) {
        return first;
      }
    }
    throw new IOException("no three free ports in a row in the testbed's range");
  }

  private static boolean listenable(int port) {
    try (ServerSocket s = new ServerSocket(port)) {
      return s.isBound();
    } catch (IOException e) {
      return false;
    }
  }
}
