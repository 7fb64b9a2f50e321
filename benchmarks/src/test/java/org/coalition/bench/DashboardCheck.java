package org.coalition.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.coalition.bench.DecisionLog.Decision;
import org.coalition.testbed.Ports;
import org.coalition.testbed.Screenshots;
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
 * A running federation's dashboard in Debian's headless Chromium (through its chromedriver and
 * Selenium): north's page, once it shows all three sites live, a ledger with work in it and the
 * flows from north to the sites that ran its jobs; a job of north's looked up by its id. Each
 * view is kept as a screenshot in {@code screenshots} and checked for content: the tables'
 * figures, and an image that is not blank.
 */
final class DashboardCheck implements E2eBenchmark.Probe {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path DRIVER = Path.of("/usr/bin/chromedriver");

  private final Path screenshots;

  DashboardCheck(Path screenshots) {
    this.screenshots = screenshots;
  }

  @Override
  public List<String> look(TestbedFederation f) throws Exception {
    List<String> problems = new ArrayList<>();
    if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(DRIVER)) {
      return List.of("Chromium or its driver is missing (" + CHROMIUM + ", " + DRIVER + "): testbed/up tools installs them");
    }
    Files.createDirectories(screenshots);
    ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile())
        .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1300,2000");
    ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile()).usingPort(freePort()).build();
    WebDriver browser = new ChromeDriver(service, options);
    try {
      browser.get("http://127.0.0.1:" + f.site("north").port() + "/");
      WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(60));
      wait.until(b -> b.findElement(By.id("summary")).getText().startsWith("3 of 3 sites live"));
      wait.until(b -> rows(b, "flows").size() >= 2 && rows(b, "ledger").size() == 3);
      Thread.sleep(11_000); // two more refreshes: the ledger's chart has points to draw between
      String page = (String) ((JavascriptExecutor) browser).executeScript("return document.body.innerText;");
      for (String site : List.of("north", "south", "west")) {
        if (rows(browser, "sites").stream().noneMatch(r -> r.startsWith(site + " live"))) {
          problems.add("the dashboard does not show " + site + " live: " + rows(browser, "sites"));
        }
      }
      List<String> flows = rows(browser, "flows");
      for (String executor : List.of("south", "west")) {
        if (flows.stream().noneMatch(r -> r.startsWith("north " + executor + " ") && !r.startsWith("north " + executor + " 0 "))) {
          problems.add("no flow from north to " + executor + " with jobs in it: " + flows);
        }
      }
      if (rows(browser, "ledger").stream().noneMatch(r -> r.startsWith("north ") && !r.matches("north 0 0 .*"))) {
        problems.add("north's ledger row holds no work: " + rows(browser, "ledger"));
      }
      if (rows(browser, "decisions").isEmpty()) {
        problems.add("no recent decision is shown");
      }
      if (browser.findElements(By.cssSelector("#ledger-chart canvas")).isEmpty()) {
        problems.add("the ledger's chart is not drawn");
      }
      problems.addAll(screenshot(browser, "north-dashboard", page));

      String job = replayedJob(f);
      browser.findElement(By.id("job-id")).sendKeys(job);
      browser.findElement(By.cssSelector("#job-form button")).click();
      wait.until(b -> !rows(b, "job").isEmpty());
      List<String> story = rows(browser, "job");
      if (story.stream().noneMatch(r -> r.equals("job north/" + job)) || story.stream().noneMatch(r -> r.startsWith("ran at south")
          || r.startsWith("ran at west"))) {
        problems.add("job " + job + "'s story does not say where it ran: " + story);
      }
      problems.addAll(screenshot(browser, "north-job-" + job, String.join("\n", story)));
    } finally {
      browser.quit();
    }
    return problems;
  }

  /**
   * A port for the driver, from the testbed's reserved range: Selenium's own probe looks only outside
   * the ephemeral range, and on a machine whose range is 1024-65535 (this one) it has one port
   * left to offer, 1024, which any outgoing connection may hold: "Unable to find a free port".
   */
  private static int freePort() {
    return Ports.free();
  }

  /**
   * The text of each row of table {@code id}'s body, its cells separated by one space: read in one
   * script, since the page replaces its rows at every refresh (an element found before may be gone).
   */
  @SuppressWarnings("unchecked")
  private static List<String> rows(WebDriver browser, String id) {
    Object rows = ((JavascriptExecutor) browser).executeScript("return Array.from(document.querySelectorAll('#' + arguments[0] + ' tbody tr'))"
        + ".map(r => Array.from(r.cells).map(c => c.textContent.trim()).join(' '));", id);
    return new ArrayList<>((List<String>) rows);
  }

  /** One of north's jobs that ran elsewhere and came back, from north's decisions. */
  private static String replayedJob(TestbedFederation f) throws IOException {
    for (Decision d : DecisionLog.read(f.site("north").log())) {
      if (d.kind().equals("replay") && d.job().startsWith("north/")) {
        return d.job().substring("north/".length());
      }
    }
    throw new IllegalStateException("north replayed no job");
  }

  /** Keeps a screenshot of the page as {@code name}.png, with its text beside it; a blank image is a problem. */
  private List<String> screenshot(WebDriver browser, String name, String text) throws IOException {
    byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
    Files.write(screenshots.resolve(name + ".png"), png);
    Files.writeString(screenshots.resolve(name + ".txt"), text);
    int colours = Screenshots.colours(png);
    return colours < Screenshots.MIN_COLOURS ? List.of("the screenshot " + name + ".png is nearly blank (" + colours + " colours)") : List.of();
  }
}
