package org.coalition.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import org.coalition.condor.CondorSettings;
import org.coalition.gridengine.GridEngineSettings;
import org.coalition.handler.HandlerSettings;
import org.coalition.handler.IdentityDomain;
import org.coalition.k8s.KubernetesConfig.Identity;
import org.coalition.k8s.KubernetesSettings;
import org.coalition.local.LocalSettings;
import org.coalition.policy.fairness.Utility;
import org.coalition.slurm.SlurmSettings;
import org.junit.jupiter.api.Test;

class SiteConfigReaderTest {
  private static final String MINIMAL = """
      site: east
      federation:
        name: fed
        zookeeper: zk:2181
        identity: /etc/coalition/east.p12
        trust: /etc/coalition/trust.p12
      handlers:
        - type: local
      http:
        operator-token-file: /etc/coalition/op.token
      """;

  private static List<String> problems(String yaml) {
    return assertThrows(ConfigException.class, () -> SiteConfigReader.parse("east.yaml", yaml)).problems();
  }

  @Test
  void aMinimalFileGetsTheDocumentedDefaults() {
    SiteConfig c = SiteConfigReader.parse("east.yaml", MINIMAL);
    assertEquals("east", c.site());
    assertEquals(new SiteConfig.Federation("fed", "zk:2181", Path.of("/etc/coalition/east.p12"), Path.of("/etc/coalition/trust.p12"),
        Duration.ofSeconds(15), Duration.ofSeconds(60)), c.federation());
    assertEquals(List.of(new LocalSettings("local", 4)), c.handlers());
    assertEquals(Map.of(), c.accounts());
    assertEquals(new SiteConfig.Sharing(0.7, 7200, Duration.ofSeconds(60), SiteConfig.Policy.DIRECT_CONTR, Utility.ORIG,
        Duration.ofSeconds(30), SiteConfig.Eviction.DAEMON), c.sharing());
    assertEquals(new SiteConfig.Pilots("", Duration.ofMinutes(10), Duration.ofSeconds(30), 16, List.of("coalition", "pilot"), false,
        Duration.ofSeconds(10), Duration.ofMinutes(5)), c.pilots());
    assertEquals(new SiteConfig.Http("127.0.0.1", 8443, Optional.empty(), Path.of("/etc/coalition/op.token"), "http://127.0.0.1:8443/"),
        c.http());
    assertEquals(Path.of("/var/lib/coalition/east"), c.spool(), "the packaged unit's StateDirectory");
    assertEquals(new SiteConfig.Staging(1L << 30, 10L << 30), c.staging());
    assertEquals(List.of(), c.identityDomains(), "in no identity domain");
    assertEquals(ContractsSettings.NONE, c.contracts(), "no market");
  }

  @Test
  void aContractsBlockNamesBlockTypesWithTheirCoresHoursAndLimitsOnOneSideEach() {
    SiteConfig c = SiteConfigReader.parse("east.yaml", MINIMAL + """
        contracts:
          enabled: true
          approval: true
          sell:
            - type: batch.cpu16x2
              hours: [0-6, 22-23]
              per-day: 4
          buy:
            - type: gpu.cpu32x1.a100
              limit: 50000
        """);
    assertEquals(new ContractsSettings(true, true,
        List.of(new ContractsSettings.Offer("batch.cpu16x2", Set.of(0, 1, 2, 3, 4, 5, 6, 22, 23), 4, 0)),
        List.of(new ContractsSettings.Offer("gpu.cpu32x1.a100", Set.copyOf(IntStream.range(0, 24).boxed().toList()), 1, 50_000))),
        c.contracts());
    assertEquals(List.of(
        "east.yaml:13: contracts.sell[0].type: a block type is PARTITION.cpuCxN[.FLAVOUR] (N nodes of C cores; batch.cpu16x2), was batch",
        "east.yaml:14: contracts.sell[0].hours: '24' is not an hour 0-23 or a range of them such as 22-23 (UTC)",
        "east.yaml:14: contracts.sell[0].hours: '6-2' is not an hour 0-23 or a range of them such as 22-23 (UTC)",
        "east.yaml:16: contracts.sell[2].type: block type batch.cpu8x1 is listed twice under sell; give each its hours in one entry",
        "east.yaml:19: contracts.buy[1].per-day: must be between 1 and 1440, was 0",
        "east.yaml:19: contracts.buy[1].pre-day: unknown key (did you mean 'per-day'?)",
        "east.yaml:17: contracts.buy: block type batch.cpu8x1 is offered for sale too: a site bids on one side of a block type only (keep"
            + " the block rather than buy it); remove it from sell or from buy"),
        problems(MINIMAL + """
            contracts:
              sell:
                - type: batch
                  hours: [24, 6-2]
                - type: batch.cpu8x1
                - type: batch.cpu8x1
              buy:
                - {type: batch.cpu8x1}
                - {type: batch.cpu4x1, per-day: 0, pre-day: 2}
            """));
    assertEquals(List.of("east.yaml:12: contracts.enabled: is true but nothing is offered: add sell or buy entries, e.g. sell: [{type:"
        + " batch.cpu16x2, hours: [0-6, 22-23], per-day: 4}]"), problems(MINIMAL + "contracts:\n  enabled: true\n"));
  }

  @Test
  void identityDomainsNameThisSiteAnotherUnprivilegedUsersAndAbsoluteSharedPaths() {
    SiteConfig c = SiteConfigReader.parse("east.yaml", MINIMAL + """
        identity-domains:
          - name: campus
            sites: [east, west]
            users: [alice, bob]
            shared: [/home, /scratch/projects]
          - name: lab
            sites: [east, north]
            users: alice
        """);
    assertEquals(List.of(new IdentityDomain("campus", Set.of("east", "west"), Set.of("alice", "bob"),
        List.of(Path.of("/home"), Path.of("/scratch/projects"))), new IdentityDomain("lab", Set.of("east", "north"), Set.of("alice"), List.of())),
        c.identityDomains());
    assertEquals(List.of(
        "east.yaml:13: identity-domains[0].sites: must list this site, east, and the others it shares users with: each member declares the"
            + " domain in its own file, and a site trusts only its own",
        "east.yaml:14: identity-domains[0].users: 'root' is not an unprivileged account name; root is never mapped",
        "east.yaml:15: identity-domains[0].shared: 'scratch' must be an absolute path other than /, without '.', '..' or a trailing '/', e.g. /home",
        "east.yaml:15: identity-domains[0].shared: '/' must be an absolute path other than /, without '.', '..' or a trailing '/', e.g. /home",
        "east.yaml:15: identity-domains[0].shared: '/home/../etc' must be an absolute path other than /, without '.', '..' or a trailing '/',"
            + " e.g. /home",
        "east.yaml:16: identity-domains[0].uzers: unknown key (did you mean 'users'?)",
        "east.yaml:18: identity-domains[1].sites: must list at least one other site besides east",
        "east.yaml:17: identity-domains[1].users: is required: a list, e.g. [alice, bob]",
        "east.yaml:19: identity-domains[2].name: 'campus' names two domains; give each its own name"),
        problems(MINIMAL + """
            identity-domains:
              - name: campus
                sites: [west, north]
                users: [alice, root]
                shared: [scratch, /, /home/../etc]
                uzers: [bob]
              - name: solo
                sites: [east]
              - name: campus
                sites: [east, west]
                users: [alice]
            """));
  }

  @Test
  void usersOfOtherHostsReadTheirJobsOnlyWhereTheSiteFileNamesUnmunge() {
    assertEquals(Optional.of(List.of("unmunge", "--socket", "/run/munge/munge.socket.2")), SiteConfigReader.parse("east.yaml",
        MINIMAL + "  unmunge: [unmunge, --socket, /run/munge/munge.socket.2]\n").http().unmunge());
    assertEquals(Optional.empty(), SiteConfigReader.parse("east.yaml", MINIMAL).http().unmunge());
  }

  @Test
  void aSiteRunsJobsOfSeveralNodesOnlyWhereItsFileSaysSo() {
    assertTrue(SiteConfigReader.parse("east.yaml", MINIMAL.replace("http:\n", "pilots:\n  multi-node: true\nhttp:\n")).pilots().multiNode());
    assertFalse(SiteConfigReader.parse("east.yaml", MINIMAL).pilots().multiNode());
    List<String> problems = problems(MINIMAL.replace("http:\n", "pilots:\n  multi-node: sometimes\nhttp:\n"));
    assertEquals(1, problems.size(), problems.toString());
    assertTrue(problems.get(0).endsWith("pilots.multi-node: must be true or false, was 'sometimes'"), problems.toString());
  }

  @Test
  void pilotsKeepTheirBatchOutputOnlyInAPlainFolderTheSiteFileNames() {
    assertEquals(Optional.empty(), SiteConfigReader.parse("east.yaml", MINIMAL).pilots().output(), "none kept by default");
    assertEquals(Optional.of(Path.of("/var/log/coalition/pilots")), SiteConfigReader.parse("east.yaml",
        MINIMAL.replace("http:\n", "pilots:\n  output: /var/log/coalition/pilots\nhttp:\n")).pilots().output());
    for (String bad : List.of("pilots", "/var/log/%j", "/var/log/$USER", "/var/../etc", "/var/log/my pilots")) {
      List<String> problems = problems(MINIMAL.replace("http:\n", "pilots:\n  output: \"" + bad + "\"\nhttp:\n"));
      assertEquals(1, problems.size(), bad + ": " + problems);
      assertTrue(problems.get(0).contains("pilots.output: must be"), bad + ": " + problems);
    }
  }

  @Test
  void stagingLimitsAreSizesWithUnitsAndASiteKeepsAtLeastOneJobsFiles() {
    SiteConfig c = SiteConfigReader.parse("east.yaml", MINIMAL + "staging:\n  max-job: 100M\n  max-site: 2GiB\n");
    assertEquals(new SiteConfig.Staging(100L << 20, 2L << 30), c.staging());
    assertEquals(List.of("east.yaml:12: staging.max-job: must be a size such as 512M, 1G or 10G (bytes, or K, M, G, T), was 'lots'"),
        problems(MINIMAL + "staging:\n  max-job: lots\n"));
    assertEquals(List.of("east.yaml:13: staging.max-site: must be at least staging.max-job (2147483648 bytes): a site must keep one job's files,"
        + " was 1073741824"), problems(MINIMAL + "staging:\n  max-job: 2G\n  max-site: 1G\n"));
  }

  /** Found by SiteFileFuzzTest, kept: broken YAML is reported with its line, and a problem is one line whatever the value holds. */
  @Test
  void brokenYamlNamesItsLineAndAValueWithALineBreakStaysOnOneLine() {
    List<String> broken = problems(MINIMAL.replace("name: fed", "name: {fed"));
    assertTrue(broken.size() == 1 && broken.get(0).matches("east\\.yaml:[34]: not valid YAML: while parsing a flow mapping.*"), broken.toString());
    List<String> oneLine = problems(MINIMAL.replace("  - type: local", "  - type: local\n    cores: \"4\\n2\""));
    assertTrue(oneLine.stream().allMatch(p -> !p.contains("\n") && p.startsWith("east.yaml:")), oneLine.toString());
    assertTrue(oneLine.stream().anyMatch(p -> p.contains("4\\n2")), "the line break is shown as an escape: " + oneLine);
  }

  @Test
  void theExampleSiteFilesOfTheDocsAreValid() throws Exception {
    Path docs = Path.of("..", "docs", "examples");
    SiteConfig slurm = SiteConfigReader.read(docs.resolve("site-slurm.yaml"));
    SlurmSettings h = (SlurmSettings) slurm.handlers().get(0);
    assertEquals("http://slurmctl.north:6820", h.url());
    assertEquals(Optional.of(Path.of("/etc/slurm/jwt_hs256.key")), h.jwtKey());
    assertEquals(Map.of("south", "fed-south", "west", "fed-west"), slurm.accounts());
    assertTrue(slurm.http().tls().isPresent());
    assertEquals(1, SiteConfigReader.read(docs.resolve("site-local.yaml")).handlers().size());
    SiteConfig west = SiteConfigReader.read(docs.resolve("site-kubernetes.yaml"));
    assertEquals(new KubernetesSettings("kubernetes", Optional.of(Path.of("/etc/coalition/west.kubeconfig")), "coalition-pilots",
        "registry.example.org/coalition-pilot:0.1", Map.of("fed-south", new Identity(20001, 20001), "fed-west", new Identity(20002, 20002)),
        Duration.ofMinutes(5), Duration.ofMinutes(10), Optional.of("coalition-pilots")), west.handlers().get(0));
    assertEquals(new GridEngineSettings("gridengine", Optional.of(Path.of("/usr/lib/gridengine-drmaa/lib/libdrmaa.so.1.0")),
        List.of("/usr/lib/gridengine/qstat"), List.of("all.q"), "smp", Duration.ofHours(1), "mem_free",
        Optional.of(Path.of("/var/lib/coalition/gridengine-results")), Path.of("/var/spool/gridengine/qmaster")),
        SiteConfigReader.read(docs.resolve("site-gridengine.yaml")).handlers().get(0));
    assertEquals(new CondorSettings("condor", Optional.of(Path.of("/usr/bin")), List.of("/usr/sbin/runuser", "-u", "{user}", "--"),
        Duration.ofHours(1), Optional.of(Path.of("/var/lib/coalition/condor-results")), Path.of("/usr/lib/coalition/coalition-replay")),
        SiteConfigReader.read(docs.resolve("site-condor.yaml")).handlers().get(0));
  }

  @Test
  void aKubernetesHandlerNeedsANamespaceAnImageAndANonRootUidForEveryMappedAccount() {
    String k8s = MINIMAL.replace("- type: local", """
        - type: k8s
            namespace: pilots
            image: pilot:1
            uids:
              fed-south: "1001:1001"
        accounts:
          south: fed-south""");
    SiteConfig c = SiteConfigReader.parse("east.yaml", k8s);
    assertEquals(new KubernetesSettings("kubernetes", Optional.empty(), "pilots", "pilot:1", Map.of("fed-south", new Identity(1001, 1001)),
        Duration.ofMinutes(5), Duration.ofMinutes(10), Optional.empty()), c.handlers().get(0), "defaults of the optional keys");
    List<String> p = problems(k8s.replace("namespace: pilots", "namespace: Pilots_1").replace("\"1001:1001\"", "\"0:0\"")
        .replace("south: fed-south", "south: fed-south\n  \"*\": fed-guest").replace("image: pilot:1", "image: pilot:1\n    pending-timeout: 2s"));
    assertEquals(List.of(
        "east.yaml:9: handlers[0].namespace: 'Pilots_1' must be a Kubernetes namespace: 1-63 lower-case letters, digits and '-'",
        "east.yaml:13: handlers[0].uids.fed-south: must be UID:GID, each 1 to 2147483647 (foreign jobs never run as root or in its group),"
            + " was '0:0'",
        "east.yaml:11: handlers[0].pending-timeout: must be at least 10000 ms, was 2s",
        "east.yaml:14: accounts: account 'fed-south' has no uid in handler kubernetes's uids; add fed-south: \"UID:GID\" there (its pods run as that uid)",
        "east.yaml:14: accounts: account 'fed-guest' has no uid in handler kubernetes's uids; add fed-guest: \"UID:GID\" there (its pods run as that uid)"),
        p);
    List<String> q = problems(k8s.replace("site: east", "site: " + "e".repeat(64)).replace("\"1001:1001\"", "\"1001:0\"")
        + "pilots:\n  partition: batch\n");
    assertEquals(List.of(
        "east.yaml:12: handlers[0].uids.fed-south: must be UID:GID, each 1 to 2147483647 (foreign jobs never run as root or in its group),"
            + " was '1001:0'",
        "east.yaml:1: site: '" + "e".repeat(64) + "' must also be a Kubernetes label value for handler kubernetes: at most 63 characters,"
            + " starting and ending with a letter or digit",
        "east.yaml:13: accounts: account 'fed-south' has no uid in handler kubernetes's uids; add fed-south: \"UID:GID\" there (its pods run as that uid)",
        "east.yaml:18: pilots.partition: must stay empty with handler kubernetes: Kubernetes has no partitions (was 'batch')"), q);
  }

  @Test
  void gridEngineAndHtcondorHandlersWithTheirDefaultsAndChecks() {
    String two = MINIMAL.replace("- type: local", """
        - type: sge
          - type: htcondor
            bin: /opt/condor/bin""");
    SiteConfig c = SiteConfigReader.parse("east.yaml", two);
    assertEquals(List.of(
        new GridEngineSettings("gridengine", Optional.empty(), List.of("qstat"), List.of(), "smp", Duration.ofHours(1), "mem_free", Optional.empty(),
            Path.of("/var/spool/gridengine/qmaster")),
        new CondorSettings("condor-1", Optional.of(Path.of("/opt/condor/bin")), List.of("/usr/sbin/runuser", "-u", "{user}", "--"),
            Duration.ofHours(1), Optional.empty(), Path.of("/usr/lib/coalition/coalition-replay"))), c.handlers(),
        "aliases and the defaults of the optional keys");
    assertFalse(c.handlers().get(1).publishesHomeJobs(), "a pool without a results folder only lends");
    List<String> p = problems(MINIMAL.replace("- type: local", """
        - type: gridengine
            queues: [all.q, "long q"]
            parallel-environment: "mpi/x"
          - type: gridengine
            name: second
          - type: condor
            as-user: [/usr/bin/sudo, -n]""") + "pilots:\n  partition: all.q\n");
    assertEquals(List.of(
        "east.yaml:9: handlers[0].queues: 'long q' is not a cluster queue name",
        "east.yaml:10: handlers[0].parallel-environment: 'mpi/x' is not a parallel environment's name",
        "east.yaml:11: handlers[1].type: a daemon drives at most one Grid Engine cluster: DRMAA 1.0 allows one session per process",
        "east.yaml:14: handlers[2].as-user: must contain {user} where the pilot's account goes, e.g. [/usr/sbin/runuser, -u, \"{user}\", --],"
            + " was [/usr/bin/sudo, -n]",
        "east.yaml:18: pilots.partition: must stay empty with handler condor-2: HTCondor has no partitions (was 'all.q')"), p);
  }

  @Test
  void anUnknownKeyIsRefusedWithItsLineAndTheClosestKnownKey() {
    List<String> p = problems(MINIMAL.replace("  zookeeper: zk:2181", "  zookeeper: zk:2181\n  sesion-timeout: 10s"));
    assertEquals(List.of("east.yaml:5: federation.sesion-timeout: unknown key (did you mean 'session-timeout'?)"), p);
    List<String> top = problems(MINIMAL + "partcipation: 5\n");
    assertEquals(List.of("east.yaml:11: partcipation: unknown key; known keys here: site, federation, handlers, accounts, sharing, pilots, http,"
        + " staging, identity-domains, contracts, logging, spool"), top);
  }

  @Test
  void commandsAreListsOfWordsOrOneWord() {
    String slurm = MINIMAL.replace("- type: local", "- type: slurm\n    url: http://127.0.0.1:6820\n    jwt-key: /etc/slurm/jwt.key"
        + "\n    scontrol: [/opt/slurm/bin/scontrol-wrapper, --quiet]") + "pilots:\n  command: [/usr/bin/java, -jar, /opt/coalition.jar, pilot]\n";
    SiteConfig c = SiteConfigReader.parse("east.yaml", slurm);
    assertEquals(List.of("/opt/slurm/bin/scontrol-wrapper", "--quiet"), ((SlurmSettings) c.handlers().get(0)).scontrol());
    assertEquals(List.of("/usr/bin/java", "-jar", "/opt/coalition.jar", "pilot"), c.pilots().command());
    String oneWord = slurm.replace("[/opt/slurm/bin/scontrol-wrapper, --quiet]", "scontrol");
    assertEquals(List.of("scontrol"), ((SlurmSettings) SiteConfigReader.parse("east.yaml", oneWord).handlers().get(0)).scontrol());
    List<String> p = problems(slurm.replace("[/usr/bin/java,", "[bin/java,").replace("[/opt/slurm/bin/scontrol-wrapper, --quiet]",
        "{path: /x}"));
    assertEquals(2, p.size(), p.toString());
    assertTrue(p.get(0).contains("handlers[0].scontrol: must be a command"), p.toString());
    assertTrue(p.get(1).contains("pilots.command: the command must start with an absolute path or a program name, was [bin/java,"),
        p.toString());
  }

  @Test
  void aCommandWrittenAsOneStringIsSplitIntoItsWordsAndQuotesAreRefused() {
    assertEquals(List.of("coalition", "pilot"), SiteConfigReader.parse("east.yaml", MINIMAL + "pilots:\n  command: coalition  pilot\n")
        .pilots().command());
    List<String> p = problems(MINIMAL + "pilots:\n  command: \"java -jar '/opt/my coalition.jar' pilot\"\n");
    assertEquals(List.of("east.yaml:12: pilots.command: quotes, backslashes and $ are not read in a command written as one string; give it"
        + " as a list of words, e.g. [/usr/bin/java, -jar, /opt/coalition/coalition.jar, pilot]"), p);
  }

  @Test
  void aSiteMayListSeveralBatchSystemsEachNamedOnce() {
    String two = MINIMAL.replace("- type: local", """
        - type: slurm
            name: clustera
            url: http://127.0.0.1:6820
            jwt-key: /etc/slurm/jwt.key
          - type: slurm
            url: http://127.0.0.1:6830
            jwt-key: /etc/slurm/b.key""");
    SiteConfig c = SiteConfigReader.parse("east.yaml", two);
    assertEquals(List.of("clustera", "slurm-1"), c.handlers().stream().map(HandlerSettings::name).toList());
    assertEquals(List.of("east.yaml:13: handlers[1].name: 'clustera' names two handlers; give each its own name"),
        problems(two.replace("url: http://127.0.0.1:6830", "name: clustera\n    url: http://127.0.0.1:6830")));
    assertTrue(problems(two.replace("name: clustera", "name: Cluster.A")).get(0)
        .contains("handlers[0].name: 'Cluster.A' must be 1-32 lowercase letters, digits, '_' or '-'"));
    assertTrue(problems(two.replace("- type: slurm\n    name: clustera", "- type: local\n    name: clustera")).get(0)
        .contains("handlers[0].type: the local (demo) batch system runs alone; list it as the only handler"));
  }

  @Test
  void everyProblemIsReportedAtOnce() {
    List<String> p = problems("""
        site: "bad id!"
        federation:
          name: fed
          zookeeper: zk:2181
          identity: relative/east.p12
          trust: /etc/coalition/trust.p12
        handlers:
          - type: slurm
            url: slurmctl:6820
          - type: drmaa
          - type: slrum
        accounts:
          south: root
        sharing:
          exposure-threshold: 1.5
          balancing-period: soon
          utility: best
        http:
          bind: 0.0.0.0
          operator-token-file: /op
        """);
    assertEquals(List.of(
        "east.yaml:1: site: 'bad id!' is not a valid id (letters, digits, '.', '_', '-'; starts with a letter or digit)",
        "east.yaml:5: federation.identity: must be an absolute path, was 'relative/east.p12'",
        "east.yaml:9: handlers[0].url: slurmrestd's address must start with http:// or https://, was 'slurmctl:6820'",
        "east.yaml:8: handlers[0].token-file: give exactly one of token-file (a token of the observer user) or jwt-key (Slurm's JWT key)",
        "east.yaml:10: handlers[1].type: name the batch system behind DRMAA: 'gridengine' (the DRMAA bridge is tested with Grid Engine's"
            + " libdrmaa)",
        "east.yaml:11: handlers[2].type: unknown batch system 'slrum' (did you mean 'slurm'?)",
        "east.yaml:13: accounts.south: 'root' is not an unprivileged local account; foreign jobs never run as root",
        "east.yaml:15: sharing.exposure-threshold: must be between 0.01 and 1, was 1.5",
        "east.yaml:16: sharing.balancing-period: must be a duration such as 500ms, 30s, 10m, 2h or 1d, was 'soon'",
        "east.yaml:17: sharing.utility: must be one of orig, rel, simpl, was 'best'",
        "east.yaml:19: http.bind: serving on 0.0.0.0 needs http.tls (keystore, password-file); plain HTTP is allowed on loopback only"), p);
  }

  @Test
  void theLogsLevelAndFormatAreTheSiteFiles() {
    assertEquals(SiteConfig.LogSettings.DEFAULT, SiteConfigReader.parse("east.yaml", MINIMAL).logging());
    assertEquals(new SiteConfig.LogSettings(SiteConfig.LogSettings.Level.DEBUG, SiteConfig.LogSettings.Format.JSON),
        SiteConfigReader.parse("east.yaml", MINIMAL + "logging:\n  level: debug\n  format: json\n").logging());
    assertEquals(List.of("east.yaml:12: logging.format: must be one of text, json, was 'xml'"),
        problems(MINIMAL + "logging:\n  format: xml\n"));
  }

  @Test
  void theBatchSystemMayEvictInsteadOfTheDaemon() {
    assertEquals(SiteConfig.Eviction.BATCH_SYSTEM, SiteConfigReader.parse("east.yaml", MINIMAL + "sharing:\n  eviction: batch-system\n")
        .sharing().eviction());
    assertEquals(List.of("east.yaml:12: sharing.eviction: must be one of daemon, batch-system, was 'slurm'"),
        problems(MINIMAL + "sharing:\n  eviction: slurm\n"));
  }

  @Test
  void theApiAddressPeersUseIsTheBindAddressOrTheUrlGiven() {
    String head = MINIMAL.substring(0, MINIMAL.indexOf("http:"));
    String tls = "  tls: {keystore: /etc/coalition/k.p12, password-file: /etc/coalition/k.pw}\n  operator-token-file: /op\n";
    assertEquals("https://10.0.0.5:9443/", SiteConfigReader.parse("east.yaml", head + "http:\n  bind: 10.0.0.5\n  port: 9443\n" + tls)
        .http().url());
    assertEquals("https://east-daemon:8443/", SiteConfigReader.parse("east.yaml", head
        + "http:\n  bind: 0.0.0.0\n  url: https://east-daemon:8443\n" + tls).http().url());
    assertEquals(List.of("east.yaml:9: http.url: is required when http.bind is 0.0.0.0 (every address): give the address pilots and"
        + " peers use, e.g. https://daemon.example.org:8443/"), problems(head + "http:\n  bind: 0.0.0.0\n" + tls));
    assertEquals(List.of("east.yaml:11: http.url: must be an https:// address with a host and no query (the API serves TLS), was"
        + " 'http://east-daemon:8443/'"), problems(head + "http:\n  bind: 0.0.0.0\n  url: http://east-daemon:8443/\n" + tls));
  }

  @Test
  void aSiteFileFromBeforeTlsSaysWhatReplacesItsSecret() {
    List<String> p = problems(MINIMAL.replace("  trust: /etc/coalition/trust.p12\n", "  secret-file: /etc/coalition/east.secret\n"));
    assertTrue(p.contains("east.yaml:6: federation.secret-file: sites now reach ZooKeeper over TLS with a certificate, not a secret: replace"
        + " secret-file with identity (the site's key store from coalition federation issue) and trust (the federation's trust.p12);"
        + " docs/site-file.md"), p.toString());
  }

  @Test
  void brokenYamlAndMissingSectionsSayWhat() {
    assertTrue(problems("site: [east\n").get(0).matches("east\\.yaml:[0-9]+: not valid YAML: .*"), problems("site: [east\n").toString());
    assertEquals(List.of(
        "east.yaml:1: federation: missing; it is required",
        "east.yaml:1: federation.name: missing; it is required",
        "east.yaml:1: federation.zookeeper: missing; it is required",
        "east.yaml:1: federation.identity: missing; it is required",
        "east.yaml:1: federation.trust: missing; it is required",
        "east.yaml:1: handlers: missing; it is required",
        "east.yaml:1: http.operator-token-file: missing; it is required"), problems("site: east\n"));
    assertEquals(List.of("east.yaml:2: key 'site' appears twice"), problems("site: a\nsite: b\n"));
  }
}
