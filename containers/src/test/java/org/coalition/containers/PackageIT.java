package org.coalition.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.model.AccessMode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.Volume;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Screenshots;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.MountableFile;

/**
 * The Debian packages on a clean Debian 12 host with systemd (coalition/debian-systemd: systemd
 * as the container's first process, Java, Debian's Slurm unconfigured, nothing of Coalition):
 * installed with apt, then every command of docs/operations.md's "A federation on one machine"
 * run as written there, in order (the blocks marked {@code <!-- run by containers/PackageIT -->}):
 * the CA, a ZooKeeper server as {@code coalition-zookeeper.service}, the federation with two
 * sites, a one-node Slurm cluster for north, two site files, two daemons as {@code coalition@north}
 * and {@code coalition@south}, and a workload of eight {@code sbatch} jobs of north's user. Then
 * what an admin would check: both live, the workload through both daemons with every output home,
 * the dashboard in a browser with the workload's numbers, the man page and completion installed, the units verified by
 * systemd, the sandbox really applied to the running daemon, a broken site file not restarted in
 * a loop, a member's key rotated and a member removed, the local trial run from the installed
 * examples, and a removal of the package that keeps site files.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PackageIT {
  private static final Path OPERATIONS = Path.of("..", "docs", "operations.md");
  private static final String MARK = "<!-- run by containers/PackageIT -->";
  /**
   * The daemon unit's CapabilityBoundingSet as a mask: CHOWN 0, DAC_OVERRIDE 1, DAC_READ_SEARCH 2,
   * FOWNER 3, KILL 5, SETGID 6, SETUID 7, NET_BIND_SERVICE 10, AUDIT_WRITE 29.
   */
  private static final long BOUNDING = 0x200004efL;

  private static final Logs LOGS = new Logs(Path.of("target", "containers"));
  private static final Path SCREENSHOTS = Path.of("target", "containers", "screenshots");
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  /** The jobs alice submits in the guide's workload. */
  private static final int JOBS = 8;
  private static final String OPERATOR = "--zookeeper localhost:2281 --identity /root/operator.p12 --trust /root/ca/trust.p12";
  private static GenericContainer<?> host;
  /**
   * How often a wait asks the container: each question is a {@code docker exec} (about 0.2 s of
   * CPU) and often a command's JVM, so asking four times a second, as a wait does by default,
   * takes a core from what it waits for.
   */
  private static final Duration EVERY = Duration.ofSeconds(2);

  @BeforeAll
  static void bootAndInstallFromTheGuide() throws Exception {
    List<Path> debs = packages();
    // systemd needs its own /run and the cgroup tree; CAP_SYS_ADMIN and no seccomp profile let it
    // build the units' sandboxes (mount namespaces), which it otherwise skips without a word
    host = Engine.container("coalition/debian-systemd:bookworm").withCreateContainerCmdModifier(LOGS.hostname("debian"))
        .withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withCapAdd(Capability.SYS_ADMIN)
            .withSecurityOpts(List.of("seccomp=unconfined", "apparmor=unconfined"))
            .withTmpFs(Map.of("/run", "rw,exec", "/run/lock", "rw"))
            .withBinds(new Bind("/sys/fs/cgroup", new Volume("/sys/fs/cgroup"), AccessMode.ro)))
        .withLogConsumer(LOGS.to("debian"));
    host.start();
    Eventually.waitFor(() -> "systemd to boot in the container", Duration.ofMinutes(1), EVERY,
        () -> run("systemctl is-system-running").getStdout().matches("(?s)(running|degraded).*"));
    // after the boot: systemd mounts a fresh /tmp, so the packages go to root's home
    for (Path deb : debs) {
      host.copyFileToContainer(MountableFile.forHostPath(deb, 0644), "/root/" + deb.getFileName());
    }
    List<String> blocks = blocks(Files.readString(OPERATIONS));
    assertEquals(7, blocks.size(), "operations.md's one-machine walkthrough, in blocks marked for this test");
    for (String block : blocks) {
      ExecResult r = host.execInContainer("bash", "-euo", "pipefail", "-c", "cd /root\n" + block);
      System.out.println("[package] $ " + block.strip().replace("\n", "\n[package] $ "));
      System.out.print(r.getStdout().lines().map(l -> "[package]   " + l + "\n").reduce("", String::concat));
      assertEquals(0, r.getExitCode(), "a block of docs/operations.md failed:\n" + block + "\n" + r.getStderr() + r.getStdout()
          + "\njournal:\n" + run("journalctl --no-pager -n 60").getStdout());
    }
  }

  @AfterAll
  static void stop() {
    if (host != null) {
      host.stop();
    }
  }

  @Test
  @Order(1)
  void bothDaemonsJoinedAndTheDashboardIsServed() {
    String list = ok("coalition federation list " + OPERATOR + " --json");
    assertTrue(list.contains("\"north\"") && list.contains("\"south\""), list);
    assertEquals(2, list.split("\"live\"\\s*:\\s*true", -1).length - 1, "both members live: " + list);
    String sites = ok("coalition sites --config /etc/coalition/south.yaml --json");
    assertEquals(2, sites.split("\"live\"\\s*:\\s*true", -1).length - 1, "south sees both live: " + sites);
    assertTrue(ok("curl -fsS http://127.0.0.1:8081/").contains("<title>Coalition</title>"), "north's dashboard");
    assertTrue(ok("curl -fsS http://127.0.0.1:8082/ui/dashboard.js").length() > 1000, "south's dashboard script, from its jar");
    for (String site : List.of("north", "south")) {
      assertTrue(ok("systemctl show -p StatusText --value coalition@" + site).contains("joined federation demo"),
          site + " told systemd it joined (READY from its main process: NotifyAccess=main)");
      assertEquals("active", ok("systemctl is-active coalition@" + site).strip());
    }
  }

  /**
   * The guide's workload went through both daemons: each of alice's eight jobs ran once, as alice
   * at north or as fed-north at south (north has two cores for eight jobs), each output came home
   * whole where alice asked for it, Slurm shows every job completed with exit 0, and south's
   * ledger credits it with the jobs its outputs say it ran (a run at south twice, or at both
   * sites, would count more there than the outputs show).
   */
  @Test
  @Order(2)
  void aliceSJobsRanOnceEachSomeAtSouthAndCameHomeWhole() {
    int atSouth = ranAtSouth().size();
    assertTrue(atSouth >= 1 && atSouth <= JOBS - 2, "north runs two at once and publishes what waits: " + atSouth + " ran at south");
    String slurm = ok("scontrol show job --oneliner");
    for (int i = 1; i <= JOBS; i++) {
      assertTrue(slurm.matches("(?s).*JobId=" + i + " .*?JobState=COMPLETED .*?ExitCode=0:0 .*"), "job " + i + " in Slurm: " + slurm);
    }
    String ledger = ok("coalition ledger --config /etc/coalition/south.yaml --json");
    assertTrue(ledger.matches("(?s).*\"site\" : \"south\",[^}]*\"jobsExecuted\" : " + atSouth + ",.*"), "south ran " + atSouth + ": " + ledger);
  }

  /**
   * North's dashboard in Debian's headless Chromium, opened on the container's own loopback as the
   * guide says (the browser runs in the container's network namespace): both sites live, the flow
   * from north to south and south's ledger row with as many jobs as the outputs say ran there, the
   * decisions, and one of those jobs' story by its address. Screenshots are kept and must show something.
   */
  @Test
  @Order(3)
  void theDashboardInABrowserShowsTheWorkloadsRealNumbers() throws Exception {
    List<Integer> south = ranAtSouth();
    String page = browse("http://127.0.0.1:8081/", "north-dashboard");
    assertTrue(page.contains("2 of 2 sites live"), page);
    List<String> sites = Dom.rows(page, "sites");
    assertTrue(sites.stream().anyMatch(r -> r.startsWith("north live 2 ")) && sites.stream().anyMatch(r -> r.startsWith("south live 4 ")), sites.toString());
    List<String> flows = Dom.rows(page, "flows");
    assertTrue(flows.stream().anyMatch(r -> r.startsWith("north south " + south.size() + " ")),
        "the flow north -> south of " + south.size() + " jobs: " + flows);
    List<String> ledger = Dom.rows(page, "ledger");
    assertTrue(ledger.stream().anyMatch(r -> r.matches("south [0-9,.]+ [0-9,.]+ [-0-9,.]+ " + south.size() + " 0")), "south's ledger row: " + ledger);
    assertTrue(Dom.rows(page, "decisions").stream().anyMatch(r -> r.contains("replay job=north/")), Dom.rows(page, "decisions").toString());
    int job = south.get(0);
    String story = browse("http://127.0.0.1:8081/#job=" + job, "north-job-" + job);
    List<String> rows = Dom.rows(story, "job");
    assertTrue(rows.contains("job north/" + job) && rows.contains("ran at south"), "job " + job + "'s story: " + rows);
  }

  /** The numbers of alice's jobs that ran at south, from their outputs; every output says exactly where its job ran. */
  private static List<Integer> ranAtSouth() {
    List<Integer> south = new ArrayList<>();
    for (int i = 1; i <= JOBS; i++) {
      String out = ok("cat /home/alice/job-" + i + ".out");
      assertTrue(out.equals("job " + i + " ran as alice\n") || out.equals("job " + i + " ran as fed-north\n"), "job " + i + "'s output: " + out);
      if (out.contains("fed-north")) {
        south.add(i);
      }
    }
    return south;
  }

  /**
   * The page at {@code url} as Chromium renders it once its script has run ({@code --dump-dom}
   * after 15 s of the page's own time), and its screenshot kept as {@code name}.png, checked not blank.
   */
  private static String browse(String url, String name) throws Exception {
    assertTrue(Files.isExecutable(CHROMIUM), CHROMIUM + " is missing: testbed/up tools installs it");
    Files.createDirectories(SCREENSHOTS);
    Path png = SCREENSHOTS.resolve(name + ".png").toAbsolutePath();
    String dom = chromium(url, "--dump-dom");
    Files.writeString(SCREENSHOTS.resolve(name + ".html"), dom);
    chromium(url, "--screenshot=" + png);
    int colours = Screenshots.colours(Files.readAllBytes(png));
    assertTrue(colours >= Screenshots.MIN_COLOURS, name + ".png is nearly blank: " + colours + " colours");
    return dom;
  }

  /** Chromium run on the container's loopback; the page's console must stay silent (an error in its script fails the test). */
  private static String chromium(String url, String what) throws Exception {
    long pid = host.getContainerInfo().getState().getPidLong();
    Path log = Files.createTempFile("chromium-", ".log");
    Path out = Files.createTempFile("chromium-", ".out");
    try {
      Process p = new ProcessBuilder("nsenter", "--net=/proc/" + pid + "/ns/net", CHROMIUM.toString(), "--headless=new", "--no-sandbox",
          "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1300,2000", "--virtual-time-budget=15000", "--enable-logging=stderr",
          "--v=0", what, url).redirectOutput(out.toFile()).redirectError(log.toFile()).start();
      if (!p.waitFor(2, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new AssertionError("chromium " + what + " " + url + " did not end within 2 minutes");
      }
      assertEquals(0, p.exitValue(), "chromium " + what + " " + url);
      List<String> console = Files.readAllLines(log).stream().filter(l -> l.contains(":CONSOLE")).toList();
      assertEquals(List.of(), console, "the page's console at " + url);
      return Files.readString(out, StandardCharsets.UTF_8);
    } finally {
      Files.delete(log);
      Files.delete(out);
    }
  }

  @Test
  @Order(4)
  void theCommandItsManPageAndItsCompletionAreInstalled() {
    assertTrue(ok("coalition --help").contains("federation"));
    assertTrue(ok("coalition --version").contains("Java 17"), "the system's Java");
    String man = ok("MANWIDTH=100 man -P cat coalition 2>&1");
    for (String section : List.of("coalition federation create", "coalition config check", "EXIT STATUS", "/var/lib/coalition/SITE")) {
      assertTrue(man.contains(section), section + " missing from man coalition");
    }
    String completion = ok(". /usr/share/bash-completion/bash_completion && { _completion_loader coalition; complete -p coalition; }");
    assertTrue(completion.contains("coalition"), completion);
    assertTrue(ok("id coalition").contains("coalition"), "the package's system user");
    assertEquals("750 root coalition", ok("stat -c '%a %U %G' /etc/coalition").strip());
  }

  /** systemd reads both units without a warning, and rates the daemon's exposure (printed). */
  @Test
  @Order(5)
  void systemdVerifiesBothUnitsAndRatesTheDaemonsExposure() {
    ExecResult verify = run("systemd-analyze verify coalition@north.service coalition-zookeeper.service");
    assertEquals(0, verify.getExitCode(), verify.getStderr());
    assertEquals("", (verify.getStdout() + verify.getStderr()).strip(), "systemd-analyze verify's warnings");
    for (String unit : List.of("coalition@north.service", "coalition-zookeeper.service")) {
      String security = ok("systemd-analyze security --no-pager " + unit);
      Matcher level = Pattern.compile("Overall exposure level for " + Pattern.quote(unit) + ": ([0-9.]+) (\\S+)").matcher(security);
      assertTrue(level.find(), security);
      System.out.println("[package] systemd-analyze security " + unit + ": exposure " + level.group(1) + " " + level.group(2));
      assertTrue(Double.parseDouble(level.group(1)) <= 4.0, unit + " exposure above 4.0 (a sandbox option lost?): " + level.group(0));
    }
  }

  /** The sandbox is not only written: the running daemon has it (bounded capabilities, no new privileges, a read-only /usr). */
  @Test
  @Order(6)
  void theRunningDaemonIsSandboxed() {
    String pid = ok("systemctl show -p MainPID --value coalition@north").strip();
    String status = ok("cat /proc/" + pid + "/status");
    assertTrue(status.contains("NoNewPrivs:\t1"), status);
    // the unit's list, within what the container itself may have (Docker's default set lacks DAC_READ_SEARCH)
    long container = capabilities(ok("cat /proc/1/status"));
    assertEquals(Long.toHexString(BOUNDING & container), Long.toHexString(capabilities(status)), "capabilities bounded to the unit's list");
    ExecResult write = run("nsenter -t " + pid + " -m touch /usr/coalition-probe");
    assertFalse(write.getExitCode() == 0, "the daemon's view of /usr is read-only");
    assertTrue(write.getStderr().contains("Read-only file system"), write.getStderr());
    ok("nsenter -t " + pid + " -m sh -c 'touch /var/lib/coalition/north/probe && rm /var/lib/coalition/north/probe'");
    // root's alone, but for the execute bit the accounts it maps need to reach their jobs' folders
    assertEquals("711 root", ok("stat -c '%a %U' /var/lib/coalition/north").strip());
  }

  private static long capabilities(String procStatus) {
    Matcher m = Pattern.compile("CapBnd:\\s*([0-9a-f]+)").matcher(procStatus);
    assertTrue(m.find(), procStatus);
    return Long.parseUnsignedLong(m.group(1), 16);
  }

  /** A site file the daemon's checks refuse fails the start with exit 4 and waits for its admin: no restart loop. */
  @Test
  @Order(7)
  void aBrokenSiteFileIsNotRestartedInALoop() throws Exception {
    ok("printf 'site: broken\\nfederation: [\\n' > /etc/coalition/broken.yaml");
    ExecResult start = run("systemctl start coalition@broken");
    assertFalse(start.getExitCode() == 0, "the start fails");
    Thread.sleep(7_000);
    assertEquals("0", ok("systemctl show -p NRestarts --value coalition@broken").strip(), "no restart: RestartPreventExitStatus");
    String journal = ok("journalctl --no-pager -u coalition@broken");
    assertTrue(journal.contains("/etc/coalition/broken.yaml:"), "the journal names the file and line: " + journal);
    assertTrue(journal.contains("status=4/"), "config check's exit code for bad input: " + journal);
    ok("rm /etc/coalition/broken.yaml; systemctl reset-failed coalition@broken");
  }

  /**
   * An ensemble's server given its quorum key without the quorum CA's certificate (docs/operations.md,
   * "Quorum TLS") does not start in plain text: prepare stops, naming the file, and writes nothing.
   */
  @Test
  @Order(7)
  void halfAQuorumKeyStopsTheServersPrepareWithTheMissingFileNamed() {
    String config = ok("cat /var/lib/zookeeper/zoo.cfg");
    ok("mkdir -p /root/quorum-half && cp /etc/coalition-zookeeper/*.p12* /root/quorum-half/ && cp /root/quorum-half/server.p12 /root/quorum-half/quorum.p12"
        + " && cp /root/quorum-half/server.p12.password /root/quorum-half/quorum.p12.password");
    ExecResult r = run("ZK_ID=1 ZK_SERVERS='zk1 zk2 zk3' COALITION_ZK_TLS=/root/quorum-half coalition-zookeeper prepare");
    assertEquals(2, r.getExitCode(), "bad input: " + r.getStderr());
    assertTrue(r.getStderr().contains("/root/quorum-half/quorum-trust.p12 is missing"), "the missing file named: " + r.getStderr());
    assertEquals(1, r.getStderr().strip().lines().count(), "one line: " + r.getStderr());
    assertEquals(config, ok("cat /var/lib/zookeeper/zoo.cfg"), "the running server's zoo.cfg is untouched");
    ok("rm -r /root/quorum-half");
  }

  /**
   * The operator rotates south's key with no overlap, writing the new key where south's site file
   * names it; south's daemon, refused on its old key, is restarted by its admin and joins on the new one.
   */
  @Test
  @Order(8)
  void aRotatedKeyTakesOverWhenTheDaemonRestarts() {
    ok("coalition federation rotate --ca /root/ca --out /etc/coalition/south.p12 --overlap 0s " + OPERATOR + " south");
    ok("systemctl restart coalition@south");
    Eventually.waitFor(() -> "south to be live again on its new key", Duration.ofMinutes(1), EVERY,
        () -> run("coalition federation list " + OPERATOR + " --json").getStdout().matches("(?s).*\"south\",\\s*\"identity\"[^}]*\"live\" : true.*"));
  }

  /** The one-command trial, on the example the package installs: ready, its dashboard served, and gone without a trace. */
  @Test
  @Order(9)
  void theTrialRunsOnTheInstalledExample() {
    ok("(coalition trial /usr/share/doc/coalition/examples/site-local.yaml > /root/trial.log 2>&1 & echo $! > /root/trial.pid)");
    Eventually.waitFor(() -> "the trial's daemon to be ready (/root/trial.log, ending: " + run("tail -n 5 /root/trial.log").getStdout() + "; "
        + run("ps -o pid,pcpu,etime,args -p $(cat /root/trial.pid) 2>&1").getStdout() + ")\n" + context(),
        Duration.ofMinutes(2), EVERY, () -> run("curl -fsS http://127.0.0.1:8443/v1/health/ready").getExitCode() == 0);
    assertTrue(ok("curl -fsS http://127.0.0.1:8443/").contains("<title>Coalition</title>"));
    ok("kill -TERM $(cat /root/trial.pid)");
    Eventually.waitFor(() -> "the trial to stop", Duration.ofSeconds(60), EVERY, () -> run("kill -0 $(cat /root/trial.pid)").getExitCode() != 0);
    assertEquals("", ok("ls -d /tmp/coalition-trial* 2>/dev/null || true").strip(), "the trial removed its folder");
  }

  /**
   * The operator removes south: it leaves the member list, north stops seeing it, and south's daemon,
   * refused, stops by itself with exit 4, which the unit does not restart; its journal says why.
   */
  @Test
  @Order(10)
  void aRemovedSiteLeavesTheFederation() {
    ok("coalition federation remove " + OPERATOR + " south");
    String members = ok("coalition federation list " + OPERATOR + " --json");
    assertFalse(members.contains("\"south\""), members);
    Eventually.waitFor(() -> "north to see south gone", Duration.ofMinutes(1), EVERY,
        () -> !run("coalition sites --config /etc/coalition/north.yaml --json").getStdout().contains("\"south\""));
    Eventually.waitFor(() -> "south's daemon to stop by itself", Duration.ofMinutes(1), EVERY,
        () -> run("systemctl is-active coalition@south").getStdout().strip().equals("failed"));
    String journal = ok("journalctl --no-pager -u coalition@south");
    assertTrue(journal.contains("refuse this site's key (its operator removed south"), journal);
    assertTrue(journal.contains("status=4/"), journal);
    assertEquals("0", ok("systemctl show -p NRestarts --value coalition@south").strip(), "not restarted");
  }

  /** Removing the package stops the daemons and keeps what is the site's: site files, keys, spools. */
  @Test
  @Order(11)
  void removalStopsTheDaemonsAndKeepsTheSitesFiles() {
    ok("apt-get remove -y coalition");
    assertEquals("inactive", run("systemctl is-active coalition@north").getStdout().strip());
    ok("test -f /etc/coalition/north.yaml && test -f /etc/coalition/north.p12 && test -d /var/lib/coalition/north");
    ok("apt-get purge -y coalition");
    ok("test -f /etc/coalition/north.yaml && test -d /var/lib/coalition/north");
  }

  private static String ok(String script) {
    ExecResult r = run(script);
    if (r.getExitCode() != 0) {
      assertEquals(0, r.getExitCode(), script + ": " + r.getStderr() + r.getStdout() + "\n" + context());
    }
    return r.getStdout();
  }

  /**
   * What a failed command's report adds: the machine's load, the ZooKeeper server's own answer and
   * its unit's last lines (CI runs met a server that took no TLS connection for 20 s, and a trial
   * that printed nothing for two minutes, and kept nothing more to tell why).
   */
  private static String context() {
    ExecResult r = run("cat /proc/loadavg; if coalition-zookeeper health; then echo 'zookeeper: serving'; else echo 'zookeeper: not serving'; fi;"
        + " timeout 5 bash -c 'exec 3<>/dev/tcp/127.0.0.1/2181; printf srvr >&3; cat <&3' 2>&1 | head -8;"
        + " journalctl --no-pager -n 15 -u coalition-zookeeper 2>&1; ps -eo pid,pcpu,etime,args --sort=-pcpu | head -8 | cut -c1-200");
    return "context (load average, ZooKeeper's health and srvr, its journal, the busiest processes):\n" + r.getStdout() + r.getStderr();
  }

  private static ExecResult run(String script) {
    try {
      return host.execInContainer("bash", "-c", script);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The shell blocks of the guide marked as run here, in order. */
  static List<String> blocks(String markdown) {
    List<String> blocks = new ArrayList<>();
    Matcher m = Pattern.compile(Pattern.quote(MARK) + "\\s*\\n```sh\\n(.*?)\\n```", Pattern.DOTALL).matcher(markdown);
    while (m.find()) {
      blocks.add(m.group(1));
    }
    return blocks;
  }

  private static List<Path> packages() throws IOException {
    Path target = Path.of("..", "debian", "target");
    List<Path> debs;
    try (Stream<Path> files = Files.list(target)) {
      debs = files.filter(f -> f.getFileName().toString().endsWith("_all.deb")).sorted().toList();
    } catch (IOException e) {
      throw new IOException("debian/target has no packages; build them first (mvn -pl debian -am package)", e);
    }
    assertEquals(2, debs.size(), "coalition and coalition-zookeeper in debian/target: " + debs);
    return debs;
  }
}
