package org.coalition.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.coalition.config.SiteConfig;
import org.coalition.config.SiteConfigReader;
import org.coalition.coordination.zookeeper.EmbeddedZooKeeper;
import org.coalition.coordination.zookeeper.ZkFederation;
import org.coalition.handler.config.Durations;
import org.coalition.handler.config.TextFile;
import org.coalition.trust.StoreFiles;
import org.coalition.zookeeper.policy.Identity;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code coalition trial SITE-FILE}: a site file tried on this machine as shipped, with no
 * federation to join yet: an embedded ZooKeeper (TLS, its own CA), the federation the file names
 * created there with the site and the homes its accounts name, credentials for the site, and the
 * site's daemon ({@code coalition daemon}, unchanged) on a copy of the file that points at them.
 * Everything it makes is in one temporary folder, removed when the daemon stops ({@link ExitTidy}).
 */
@Command(name = "trial", mixinStandardHelpOptions = true,
    header = "Try a site file on this machine: an embedded ZooKeeper, its federation and the site's daemon.",
    description = {"Starts an embedded ZooKeeper (TLS, with a CA of its own), creates the federation the site file names with the site",
        "and the homes its accounts name, issues the site's credentials and an operator token, and runs the site's daemon on a copy",
        "of the file that points at them (its federation keys, http.operator-token-file and spool replaced), until SIGTERM or",
        "Ctrl-C. Try: coalition trial docs/examples/site-local.yaml (a site whose jobs run as local processes)."})
final class TrialCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(paramLabel = "SITE-FILE", description = "The site file to try, e.g. docs/examples/site-local.yaml.")
  Path file;

  @Option(names = "--port", paramLabel = "PORT", description = "Serve the daemon's API on this port instead of the file's http.port (1-65535).")
  Integer port;

  @Option(names = "--tick", defaultValue = "1s", paramLabel = "DURATION",
      description = "How often the daemon looks at its batch system (default ${DEFAULT-VALUE}).")
  Duration tick;

  @Override
  public Integer call() throws Exception {
    if (port != null && (port < 1 || port > 65_535)) {
      throw new IllegalArgumentException("--port must be between 1 and 65535, was " + port);
    }
    SiteConfig config = SiteConfigReader.read(file); // its problems, with their lines, before anything starts
    PrintWriter err = spec.commandLine().getErr();
    // what the trial does not replace is checked as the daemon would, naming this file and its lines
    Set<String> replaced = port != null ? Set.of("federation", "http.operator-token-file", "http.tls", "spool", "http.port")
        : Set.of("federation", "http.operator-token-file", "http.tls", "spool");
    List<String> problems = SiteChecks.problems(config, replaced);
    if (!problems.isEmpty()) {
      problems.forEach(p -> err.println("coalition trial: " + p));
      err.println("coalition trial: " + problems.size() + " problem" + (problems.size() == 1 ? "" : "s") + " in " + file + " that a trial"
          + " does not replace (it brings its own federation keys, operator token, API key and spool); the keys are in docs/site-file.md");
      err.flush();
      return ExitCodes.BAD_INPUT;
    }
    CountDownLatch ended = new CountDownLatch(1);
    // registered before anything is made: a stop at any moment leaves no key, token or server behind
    try (ExitTidy tidy = ExitTidy.register("trial")) {
      tidy.after(ended); // on SIGTERM or Ctrl-C, the daemon closes in order (its own hook) before its ZooKeeper goes
      try {
        return run(config, tidy, ended, err);
      } catch (Exception e) {
        if (tidy.closing()) {
          return ExitCodes.OK; // stopped while starting: its parts were closed under it, which is no error
        }
        throw e;
      }
    }
  }

  private int run(SiteConfig config, ExitTidy tidy, CountDownLatch ended, PrintWriter err) throws Exception {
    Path dir = Files.createTempDirectory("coalition-trial-");
    tidy.removeFolder(dir, Optional.empty());
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
    EmbeddedZooKeeper zk = tidy.add(EmbeddedZooKeeper.start(Files.createDirectory(dir.resolve("zookeeper"))));
    String federation = config.federation().name();
    List<String> members = members(config);
    ZkFederation.bootstrap(zk.connectString(), zk.identity(Identity.operator(federation)), members, Clock.systemUTC());
    Path siteFile = trialFile(config, zk, dir);
    err.println("coalition trial: federation " + federation + " (sites " + String.join(", ", members) + ") in an embedded ZooKeeper at "
        + zk.connectString() + "; site " + config.site() + "'s daemon runs on " + siteFile + " (the operator token is in "
        + dir.resolve("operator.token") + "); everything here is removed when it stops; no other site runs here, so no foreign work"
        + " arrives: to watch work move between sites, coalition demo --serve");
    err.flush();
    CommandLine daemon = CoalitionCommand.commandLine();
    daemon.setOut(spec.commandLine().getOut());
    daemon.setErr(err);
    // the copy's values, its problems named at the user's file and lines (the trial's own are in order)
    DaemonCommand run = daemon.getSubcommands().get("daemon").getCommand();
    run.given = SiteConfigReader.read(siteFile).placedAs(config);
    if (tidy.closing()) {
      return ExitCodes.OK; // stopped before the daemon started
    }
    try {
      return daemon.execute("daemon", "--config", siteFile.toString(), "--tick", Durations.format(tick));
    } finally {
      ended.countDown();
    }
  }

  /** A copy of the site file whose federation keys, operator token and spool are the trial's, in {@code dir}. */
  private Path trialFile(SiteConfig config, EmbeddedZooKeeper zk, Path dir) throws IOException {
    Path token = dir.resolve("operator.token");
    byte[] secret = new byte[24];
    new SecureRandom().nextBytes(secret);
    Files.writeString(token, HexFormat.of().formatHex(secret) + "\n", StandardCharsets.US_ASCII);
    Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
    ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
    ObjectNode tree = (ObjectNode) yaml.readTree(TextFile.read(file, "a site file", 1 << 20));
    ObjectNode fed = section(tree, "federation");
    fed.put("zookeeper", zk.connectString());
    fed.put("identity", zk.issue(new Identity(config.federation().name(), config.site())).toString());
    fed.put("trust", zk.trustStore().toString());
    ObjectNode http = section(tree, "http");
    http.put("operator-token-file", token.toString());
    if (config.http().tls().isPresent()) {
      // the API's key: the site's own identity from the trial's CA, for the names its address gives
      Path key = zk.issue(new Identity(config.federation().name(), config.site()), apiNames(config));
      ObjectNode tls = section(http, "tls");
      tls.put("keystore", key.toString());
      tls.put("password-file", StoreFiles.passwordFile(key).toString());
      fed.put("identity", key.toString());
    }
    if (port != null) {
      http.put("port", port);
    }
    tree.put("spool", dir.resolve("spool").toString());
    Path out = dir.resolve(config.site() + ".yaml");
    Files.writeString(out, "# " + file.toAbsolutePath() + " for coalition trial: its federation keys, operator token and spool are the"
        + " trial's\n" + yaml.writeValueAsString(tree));
    return out;
  }

  /** The names the API serves under: its address's host (http.url), and this machine's loopback. */
  private static List<String> apiNames(SiteConfig config) {
    TreeSet<String> names = new TreeSet<>(List.of("localhost", "127.0.0.1"));
    String host = URI.create(config.http().url()).getHost();
    if (host != null) {
      names.add(host);
    }
    return List.copyOf(names);
  }

  private static ObjectNode section(ObjectNode tree, String key) {
    return tree.get(key) instanceof ObjectNode o ? o : tree.putObject(key);
  }

  /** The federation's members in a trial of {@code config}: the site and the homes its accounts name. */
  static List<String> members(SiteConfig config) {
    TreeSet<String> members = new TreeSet<>(config.accounts().keySet());
    members.remove("*");
    members.add(config.site());
    return List.copyOf(members);
  }
}
