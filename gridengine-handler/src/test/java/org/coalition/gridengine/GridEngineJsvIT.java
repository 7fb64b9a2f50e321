package org.coalition.gridengine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.coalition.drmaa.jna.NativeSession;
import org.coalition.testbed.Command;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.ggf.drmaa.JobTemplate;
import org.ggf.drmaa.Session;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The server JSV Coalition ships ({@code coalition-jsv}) as qmaster runs it on the testbed's Grid
 * Engine 8.1.9: which jobs it opts in, what a user cannot write, and what it costs a submission
 * (printed, not asserted: a figure of this machine). The cluster's global configuration is
 * restored after, as it was.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GridEngineJsvIT {
  private static final int SUBMISSIONS = 300;
  private final Instance sge = Testbed.require("sge");
  private Path dir;
  private String original;

  @BeforeAll
  void install() throws IOException {
    dir = Files.createTempDirectory(sge.path("jobs.dir"), "jsv-");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    String jsv = Files.readString(Path.of("src/main/gridengine/coalition-jsv")).replaceFirst("(?m)^FEDERATE=asked$", "FEDERATE=projects")
        .replaceFirst("(?m)^PROJECTS=\"\"$", "PROJECTS=\"fed climate\"");
    Path script = Files.writeString(dir.resolve("coalition-jsv"), jsv);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    if (qconf("-sprj", "fed").exitCode() != 0) {
      Path project = Files.writeString(dir.resolve("fed.prj"), "name fed\noticket 0\nfshare 0\nacl NONE\nxacl NONE\n");
      qconf("-Aprj", project.toString()).requireSuccess();
    }
    original = qconf("-sconf", "global").requireSuccess().stdout();
    jsv("script:" + script);
  }

  @AfterAll
  void restore() throws IOException {
    if (original != null) {
      Path conf = Files.createDirectories(dir.resolve("restore")).resolve("global"); // qconf -Mconf names the configuration by its file's name
      Files.writeString(conf, original);
      qconf("-Mconf", conf.toString()).requireSuccess();
    }
    Command.of(sge.tool("qdel"), "-u", sge.get("user")).run();
  }

  private void jsv(String url) throws IOException {
    Path conf = Files.createDirectories(dir.resolve("conf-" + System.nanoTime())).resolve("global");
    Files.writeString(conf, original.replaceFirst("(?m)^jsv_url .*$", "jsv_url                      " + url));
    qconf("-Mconf", conf.toString()).requireSuccess();
  }

  private Command.Result qconf(String... args) {
    return Command.of(sge.tool("qconf"), args).run();
  }

  /** Submits a held job as the testbed's user with {@code options} before the command; returns its id. */
  private String held(String... options) {
    List<String> args = new ArrayList<>(List.of(options));
    args.addAll(List.of("-terse", "-h", "-b", "y", "-o", "/dev/null", "-e", "/dev/null", "/bin/true"));
    return Command.of(sge.tool("qsub"), args.toArray(String[]::new)).asUser(sge.get("user")).run().requireSuccess().stdout().strip();
  }

  /** The job's context variables, as {@code qstat -j} prints them. */
  private Map<String, String> context(String id) {
    String xml = Command.of(sge.tool("qstat"), "-j", id, "-xml").run().requireSuccess().stdout();
    return QstatJobs.parse(xml).values().iterator().next().context();
  }

  @Test
  void jobsOfTheChosenProjectsAndJobsWhoseUsersAskAreOptedInAndAUserCanOptOut() {
    assertEquals(Map.of(), context(held()), "a job of no listed project, whose user did not ask");
    assertEquals(Map.of(GridEngineHome.FEDERATE, "1"), context(held("-P", "fed")));
    assertEquals(Map.of(GridEngineHome.FEDERATE, "1"), context(held("-clear", "-P", "fed")), "qsub -clear does not bypass a server JSV");
    assertEquals(Map.of(GridEngineHome.FEDERATE, "1"), context(held("-ac", GridEngineHome.FEDERATE + "=1")));
    assertEquals(Map.of("X", "1"), context(held("-P", "fed", "-ac", GridEngineHome.FEDERATE + "=0,X=1")), "opted out, its own variable kept");
  }

  @Test
  void whatAUserWritesIntoTheVariablesTheDaemonWritesIsDropped() {
    assertEquals(Map.of("KEEP", "me"), context(held("-ac", GridEngineHome.WHERE + "=ran at a site that never saw it,KEEP=me")));
    assertEquals(Map.of(GridEngineHome.FEDERATE, "1"), context(held("-P", "fed", "-ac", GridEngineHome.WHERE + "_3=forged")));
    assertEquals(Map.of("GLOB", "*", GridEngineHome.FEDERATE, "1"), context(held("-P", "fed", "-ac", "GLOB=*")),
        "a user's value is kept as written, never expanded to the JSV's files");
  }

  /**
   * Submissions per second through DRMAA from one process (no client start-up in the figure: what
   * qmaster accepts), with and without the JSV (Sun's guidance warns a shell JSV can cost most of
   * them), and every job that went through it opted in: the JSV keeps up with a burst.
   */
  @Test
  void whatTheJsvCostsASubmissionIsMeasuredAndEveryJobOfABurstIsOptedIn() throws Exception {
    Session session = NativeSession.load(Optional.of(sge.path("drmaa.library")));
    session.init("");
    try {
      long start = System.nanoTime();
      List<String> ids = burst(session);
      double with = SUBMISSIONS / ((System.nanoTime() - start) / 1e9);
      String xml = Command.of(sge.tool("qstat"), "-j", String.join(",", ids), "-xml").run().requireSuccess().stdout();
      Map<Long, QstatJobs.Job> jobs = QstatJobs.parse(xml);
      assertEquals(SUBMISSIONS, jobs.size());
      jobs.values().forEach(j -> assertEquals("1", j.context().get(GridEngineHome.FEDERATE), "job " + j.number() + " of the project fed"));
      deleted(ids);
      jsv("none");
      double without;
      try {
        start = System.nanoTime();
        List<String> plain = burst(session);
        without = SUBMISSIONS / ((System.nanoTime() - start) / 1e9);
        deleted(plain);
      } finally {
        jsv("script:" + dir.resolve("coalition-jsv"));
      }
      System.out.printf("[jsv] %d held DRMAA submissions in a row: %.0f jobs/s through coalition-jsv, %.0f jobs/s without a JSV (%.0f%%)%n",
          SUBMISSIONS, with, without, 100 * with / without);
    } finally {
      session.exit();
    }
  }

  /** Deletes the jobs and waits until qmaster has let them go, so that a burst after it finds qmaster as the one before did. */
  private void deleted(List<String> ids) {
    Command.of(sge.tool("qdel"), String.join(",", ids)).run().requireSuccess();
    Eventually.waitFor(() -> "qmaster to let go of " + ids.size() + " deleted jobs", Duration.ofMinutes(2), Duration.ofMillis(500),
        () -> Command.of(sge.tool("qstat"), "-u", "*").run().requireSuccess().stdout().isBlank());
  }

  private static List<String> burst(Session session) throws Exception {
    JobTemplate t = session.createJobTemplate();
    try {
      t.setRemoteCommand("/bin/true");
      t.setNativeSpecification("-P fed -b y -o /dev/null -e /dev/null");
      t.setJobSubmissionState(JobTemplate.HOLD_STATE);
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < SUBMISSIONS; i++) {
        ids.add(session.runJob(t));
      }
      return ids;
    } finally {
      session.deleteJobTemplate(t);
    }
  }
}
