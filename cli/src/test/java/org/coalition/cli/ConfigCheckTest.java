package org.coalition.cli;

import static org.coalition.testbed.Eventually.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code config check} runs the daemon's own checks of what a site file names (one code path,
 * {@link SiteChecks}): what it refuses, the daemon refuses with the same words, and the other way
 * round; every problem names the site file's line, and no secret is shown.
 */
class ConfigCheckTest {
  private static final String TOKEN = "operator-token-0123456789";

  @TempDir Path tmp;
  private Path site;
  private Path token;

  @BeforeEach
  void federation() throws Exception {
    Path ca = tmp.resolve("ca");
    assertEquals(ExitCodes.OK, CliRun.of("federation", "ca", "--dir", ca.toString(), "--name", "fed").exit());
    Path identity = tmp.resolve("east.p12");
    CliRun issued = CliRun.of("federation", "issue", "--ca", ca.toString(), "--federation", "fed", "--out", identity.toString(), "east");
    assertEquals(ExitCodes.OK, issued.exit(), issued.err());
    token = Files.writeString(tmp.resolve("op.token"), TOKEN + "\n");
    Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
    site = Files.writeString(tmp.resolve("east.yaml"), """
        site: east
        federation:
          name: fed
          zookeeper: 127.0.0.1:9
          identity: %s
          trust: %s
        handlers:
          - type: local
        http:
          operator-token-file: %s
        spool: %s
        """.formatted(identity, ca.resolve("trust.p12"), token, tmp.resolve("spool")));
  }

  /** config check and the daemon on the same file: both refuse it, each naming {@code expected}; returns config check's stderr. */
  private String bothRefuse(String expected) {
    CliRun check = CliRun.of("config", "check", site.toString());
    assertEquals(ExitCodes.BAD_INPUT, check.exit(), check.err());
    assertTrue(check.err().contains(expected), check.err());
    CliRun daemon = CliRun.of("daemon", "--config", site.toString());
    assertEquals(ExitCodes.BAD_INPUT, daemon.exit(), daemon.err());
    assertTrue(daemon.err().contains("coalition daemon: " + expected), daemon.err());
    assertFalse(check.err().contains(TOKEN) || daemon.err().contains(TOKEN), "the token is never shown");
    return check.err();
  }

  @Test
  void aSiteWhoseFilesAreInOrderPasses() {
    CliRun r = CliRun.of("config", "check", site.toString());
    assertEquals(ExitCodes.OK, r.exit(), r.err());
    assertTrue(r.out().startsWith(site + ": valid"), r.out());
  }

  @Test
  void anOperatorTokenOthersCanReadIsRefusedByBoth() throws Exception {
    Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-r--r--"));
    bothRefuse(site + ":10: http.operator-token-file: " + token + ": the operator token is readable by others; chmod 600 " + token);
    assertEquals(ExitCodes.OK, CliRun.of("config", "check", "--syntax", site.toString()).exit(), "--syntax reads the file alone");
  }

  @Test
  void aMissingOperatorTokenIsRefusedByBoth() throws Exception {
    Files.delete(token);
    bothRefuse(site + ":10: http.operator-token-file: " + token + ": the operator token is missing; create it (one line, mode 0600)");
  }

  @Test
  void anotherSitesIdentityIsRefusedByBoth() throws Exception {
    Files.writeString(site, Files.readString(site).replace("site: east", "site: west"));
    bothRefuse(site + ":5: federation.identity: " + tmp.resolve("east.p12") + ": its certificate names fed/east, but the site file is site"
        + " west of federation fed");
  }

  @Test
  void aSpoolThatIsAFileIsRefusedByBoth() throws Exception {
    Files.writeString(tmp.resolve("spool"), "not a folder\n");
    bothRefuse(site + ":11: spool: " + tmp.resolve("spool") + " is not a directory");
  }

  @Test
  void onlineSaysWhichPartDoesNotAnswer() {
    CliRun r = CliRun.of("config", "check", "--online", site.toString());
    assertEquals(ExitCodes.UNAVAILABLE, r.exit(), r.err());
    assertTrue(r.err().contains(site + ":4: federation.zookeeper: "), r.err());
  }

  /**
   * #51, problem 1: a port in use was found only after the site had joined its federation (an
   * internal error and a stack trace, then a restart every 5 s). Now both refuse it, and the daemon
   * does so before reaching ZooKeeper: this file's ZooKeeper does not answer, so a daemon that tried
   * it would wait here for ever.
   */
  @Test
  @Timeout(60)
  void aPortInUseIsRefusedByBothBeforeTheSiteJoins() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Files.writeString(site, Files.readString(site).replace("http:\n", "http:\n  port: " + taken.getLocalPort() + "\n"));
      bothRefuse(site + ":10: http.port: 127.0.0.1:" + taken.getLocalPort() + " cannot be served: ");
    }
  }

  /** The Slurm entry {@code handlers} of this test's site file: slurmrestd at a port nobody serves, with {@code credentials}. */
  private void slurmSite(String credentials) throws Exception {
    Files.writeString(site, Files.readString(site).replace("  - type: local\n", """
          - type: slurm
            url: http://127.0.0.1:9
        %s
        """.formatted(credentials.indent(4).stripTrailing())));
  }

  /** #51, problem 2: config check called a file valid whose Slurm JWT key and results folder are missing; the daemon died on them. */
  @Test
  @Timeout(60)
  void aMissingJwtKeyOrResultsFolderIsRefusedByBoth() throws Exception {
    slurmSite("jwt-key: " + tmp.resolve("jwt.key") + "\nresults: " + tmp.resolve("results"));
    String err = bothRefuse(site + ":10: handlers[0].jwt-key: " + tmp.resolve("jwt.key") + ": Slurm's JWT key");
    assertTrue(err.contains(site + ":11: handlers[0].results: " + tmp.resolve("results") + ": the results folder"), err);
    assertTrue(err.contains("2 problems in " + site), err);
  }

  /**
   * #51, problem 1: a batch system that does not answer was an internal error after the site had
   * joined. Now the daemon waits for it before it joins, one line per attempt (as for ZooKeeper),
   * and stops cleanly when asked; this file's ZooKeeper does not answer, so a daemon that had
   * reached for it would say so.
   */
  @Test
  @Timeout(60)
  void aBatchSystemThatDoesNotAnswerIsWaitedForBeforeTheSiteJoins() throws Exception {
    Path key = Files.write(tmp.resolve("jwt.key"), new byte[32]);
    slurmSite("jwt-key: " + key);
    assertEquals(ExitCodes.OK, CliRun.of("config", "check", site.toString()).exit(), "the files it names are in order");
    StringWriter err = new StringWriter();
    CommandLine cli = CoalitionCommand.commandLine();
    cli.setErr(new PrintWriter(err, true));
    DaemonCommand daemon = cli.getSubcommands().get("daemon").getCommand();
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> exit = thread.submit(() -> cli.execute("daemon", "--config", site.toString()));
      waitFor("two attempts at slurmrestd", Duration.ofSeconds(30), () -> err.toString().contains("(attempt 2;"));
      daemon.stop();
      assertEquals(ExitCodes.OK, exit.get(20, TimeUnit.SECONDS), err.toString());
    } finally {
      thread.shutdownNow();
    }
    List<String> lines = err.toString().lines().filter(l -> l.contains("attempt")).toList();
    assertTrue(lines.get(0).startsWith("coalition daemon: " + site + ":7: handlers: ping: cannot reach slurmrestd at http://127.0.0.1:9"),
        lines.get(0));
    assertTrue(lines.get(0).contains("the site has not joined its federation; trying again in 5 s (attempt 1;"), lines.get(0));
    assertFalse(err.toString().contains("ZooKeeper") || err.toString().contains("\tat "), "no ZooKeeper reached, no stack trace: " + err);
  }

  /** #51, problem 2: a missing trust store was reported under federation.identity's key and line. */
  @Test
  void aMissingTrustStoreIsNamedUnderItsOwnKey() throws Exception {
    Files.delete(tmp.resolve("ca").resolve("trust.p12"));
    bothRefuse(site + ":6: federation.trust: " + tmp.resolve("ca").resolve("trust.p12") + ": the federation's trust store is missing");
  }

  /** The local system runs jobs on this host: an account that is not here is refused, with the key and line naming it. */
  @Test
  void aLocalSitesMissingAccountIsRefusedByBoth() throws Exception {
    Files.writeString(site, Files.readString(site).replace("http:\n", "accounts:\n  north: no-such-account-51\nhttp:\n"));
    bothRefuse(site + ":10: accounts.north: no account 'no-such-account-51' on this host");
  }
}
