package org.coalition.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.coalition.config.SiteConfig.Condor;
import org.coalition.config.SiteConfig.Federation;
import org.coalition.config.SiteConfig.GridEngine;
import org.coalition.config.SiteConfig.Handler;
import org.coalition.config.SiteConfig.Http;
import org.coalition.config.SiteConfig.Kubernetes;
import org.coalition.config.SiteConfig.Local;
import org.coalition.config.SiteConfig.Pilots;
import org.coalition.config.SiteConfig.Policy;
import org.coalition.config.SiteConfig.Sharing;
import org.coalition.config.SiteConfig.Slurm;
import org.coalition.config.SiteConfig.Tls;
import org.coalition.config.SiteConfig.Uid;
import org.coalition.config.YamlTree.Node;
import org.coalition.policy.fairness.Utility;

/**
 * Reads a site file: YAML, unknown keys refused with a suggestion, every value checked, every
 * problem reported at once with its line. Files the configuration names (secrets, keys) are
 * checked to exist; their contents are read by the daemon when it starts.
 */
public final class SiteConfigReader {
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
  private static final Pattern ACCOUNT = Pattern.compile("[a-z_][a-z0-9_-]{0,31}");
  private static final Pattern LABEL_VALUE = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
  private static final Pattern QUEUE = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  /** Other names a site file may give a batch system. */
  private static final Map<String, String> ALIASES = Map.of("k8s", "kubernetes", "sge", "gridengine", "htcondor", "condor");
  private static final List<String> TYPES = List.of("slurm", "gridengine", "condor", "kubernetes", "local");

  private SiteConfigReader() {}

  public static SiteConfig read(Path file) throws IOException {
    return parse(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
  }

  /** Parses {@code text}; {@code name} names it in messages. */
  public static SiteConfig parse(String name, String text) {
    Node root;
    try {
      root = YamlTree.parse(text);
    } catch (IOException e) {
      throw new ConfigException(List.of(name + ": not valid YAML: " + e.getMessage().lines().findFirst().orElse("")));
    }
    List<String> problems = new ArrayList<>();
    Fields top = Fields.of(name, "", root, problems);
    String site = id(top, "site", problems);

    Fields fed = Fields.of(name, "federation", orEmpty(top.node("federation"), top, "federation", problems), problems);
    Federation federation = new Federation(id(fed, "name", problems), fed.string("zookeeper", "", true),
        fed.absolutePath("secret-file", true), fed.duration("session-timeout", Duration.ofSeconds(15), Duration.ofSeconds(2)));
    fed.rejectUnknown();

    List<Handler> handlers = handlers(name, top.node("handlers"), top, problems);

    Map<String, String> accounts = new LinkedHashMap<>();
    Node acc = top.node("accounts");
    if (acc != null && acc.value() != null) {
      Fields a = Fields.of(name, "accounts", acc, problems);
      if (acc.value() instanceof Map<?, ?> m) {
        for (Object k : m.keySet()) {
          String home = (String) k;
          String account = a.string(home, "", true);
          if (!home.equals("*") && !ID.matcher(home).matches()) {
            a.problem(home, "is not a site id (or '*' for every other site)");
          } else if (account.equals("root") || !ACCOUNT.matcher(account).matches()) {
            a.problem(home, "'" + account + "' is not an unprivileged local account; foreign jobs never run as root");
          } else {
            accounts.put(home, account);
          }
        }
      }
    }
    for (Handler h : handlers) {
      if (h instanceof Kubernetes k && !LABEL_VALUE.matcher(site).matches()) {
        top.problem("site", "'" + site + "' must also be a Kubernetes label value for handler " + k.name()
            + ": at most 63 characters, starting and ending with a letter or digit");
      }
      if (h instanceof Kubernetes k) {
        accounts.values().stream().distinct().filter(a -> !k.uids().containsKey(a)).forEach(a -> top.problem("accounts", "account '" + a
            + "' has no uid in handler " + k.name() + "'s uids; add " + a + ": \"UID:GID\" there (its pods run as that uid)"));
      }
    }

    Fields sh = Fields.of(name, "sharing", orEmpty(top.node("sharing"), top, null, problems), problems);
    Sharing sharing = new Sharing(
        sh.number("exposure-threshold", 0.7, 0.01, 1),
        sh.number("participation", 7200, 0, 1e15),
        sh.duration("balancing-period", Duration.ofSeconds(60), Duration.ofSeconds(1)),
        sh.choice("policy", Policy.class, Policy.DIRECT_CONTR),
        sh.choice("utility", Utility.class, Utility.ORIG),
        sh.duration("publish-after", Duration.ofSeconds(30), Duration.ZERO));
    sh.rejectUnknown();

    Fields pi = Fields.of(name, "pilots", orEmpty(top.node("pilots"), top, null, problems), problems);
    String partition = pi.string("partition", "", false);
    if (!partition.matches("[A-Za-z0-9._-]{0,64}")) {
      pi.problem("partition", "'" + partition + "' is not a partition or queue name");
    } else if (!partition.isEmpty()) {
      handlers.stream().filter(h -> h instanceof Kubernetes || h instanceof Condor).findFirst().ifPresent(h -> pi.problem("partition",
          "must stay empty with handler " + h.name() + ": " + (h instanceof Condor ? "HTCondor" : "Kubernetes") + " has no partitions (was '"
          + partition + "')"));
    }
    Pilots pilots = new Pilots(partition, pi.duration("pending-limit", Duration.ofMinutes(10), Duration.ofSeconds(10)),
        pi.duration("heartbeat", Duration.ofSeconds(30), Duration.ofSeconds(1)), pi.integer("max-pending", 16, 1, 10_000),
        pi.command("command", List.of("coalition", "pilot")));
    pi.rejectUnknown();

    Fields ht = Fields.of(name, "http", orEmpty(top.node("http"), top, null, problems), problems);
    String bind = ht.string("bind", "127.0.0.1", false);
    int port = ht.integer("port", 8443, 1, 65535);
    Optional<Tls> tls = Optional.empty();
    if (ht.has("tls")) {
      Fields t = Fields.of(name, "http.tls", ht.node("tls"), problems);
      tls = Optional.of(new Tls(t.absolutePath("keystore", true), t.absolutePath("password-file", true)));
      t.rejectUnknown();
    } else if (!bind.equals("127.0.0.1") && !bind.equals("localhost") && !bind.equals("::1")) {
      ht.problem("bind", "serving on " + bind + " needs http.tls (keystore, password-file); plain HTTP is allowed on loopback only");
    }
    Http http = new Http(bind, port, tls, ht.absolutePath("operator-token-file", true));
    ht.rejectUnknown();

    Path spool = top.absolutePath("spool", false);
    top.rejectUnknown();
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    return new SiteConfig(site, federation, handlers, accounts, sharing, pilots, http,
        spool != null ? spool : Path.of("/var/spool/coalition", site));
  }

  private static Node orEmpty(Node n, Fields parent, String required, List<String> problems) {
    if (n == null || n.value() == null) {
      if (required != null) {
        parent.string(required, null, true);
      }
      return new Node(new LinkedHashMap<String, Node>(), n == null ? 1 : n.line());
    }
    return n;
  }

  private static String id(Fields f, String key, List<String> problems) {
    String v = f.string(key, "", true);
    if (!v.isEmpty() && !ID.matcher(v).matches()) {
      f.problem(key, "'" + v + "' is not a valid id (letters, digits, '.', '_', '-'; starts with a letter or digit)");
    }
    return v;
  }

  private static List<Handler> handlers(String name, Node node, Fields top, List<String> problems) {
    List<Handler> out = new ArrayList<>();
    if (node == null || node.value() == null) {
      top.string("handlers", null, true);
      return out;
    }
    if (!(node.value() instanceof List<?> list) || list.isEmpty()) {
      problems.add(name + ":" + node.line() + ": handlers: must be a list of at least one batch system");
      return out;
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      Fields h = Fields.of(name, "handlers[" + i + "]", (Node) list.get(i), problems);
      String raw = h.string("type", "", true);
      String type = ALIASES.getOrDefault(raw, raw);
      String handlerName = h.string("name", type + (i == 0 ? "" : "-" + i), false);
      if (!handlerName.matches("[a-z0-9][a-z0-9_-]{0,31}")) {
        h.problem("name", "'" + handlerName + "' must be 1-32 lowercase letters, digits, '_' or '-' (with several handlers it prefixes"
            + " job ids: NAME.ID)");
      } else if (!names.add(handlerName)) {
        h.problem("name", "'" + handlerName + "' names two handlers; give each its own name");
      }
      if (type.equals("local") && list.size() > 1) {
        h.problem("type", "the local (demo) batch system runs alone; list it as the only handler");
      }
      switch (type) {
        case "slurm" -> {
          String url = h.string("url", "", true);
          if (!url.isEmpty() && !url.startsWith("http://") && !url.startsWith("https://")) {
            h.problem("url", "slurmrestd's address must start with http:// or https://, was '" + url + "'");
          }
          Optional<Path> token = Optional.ofNullable(h.absolutePath("token-file", false));
          Optional<Path> key = Optional.ofNullable(h.absolutePath("jwt-key", false));
          if (token.isPresent() == key.isPresent()) {
            h.problem("token-file", "give exactly one of token-file (a token of the observer user) or jwt-key (Slurm's JWT key)");
          }
          String version = h.string("version", "", false);
          if (!version.isEmpty() && !version.matches("v0\\.0\\.(38|40|42)")) {
            h.problem("version", "must be v0.0.42, v0.0.40 or v0.0.38 (or left out to use the newest the server speaks), was '" + version + "'");
          }
          out.add(new Slurm(handlerName, url, h.string("observer", "coalition", false), token, key,
              version.isEmpty() ? Optional.empty() : Optional.of(version), Optional.ofNullable(h.absolutePath("results", false)),
              h.command("scontrol", List.of("scontrol"))));
        }
        case "local" -> out.add(new Local(handlerName, h.integer("cores", 4, 1, 4096)));
        case "gridengine" -> {
          if (out.stream().anyMatch(o -> o instanceof GridEngine)) {
            h.problem("type", "a daemon drives at most one Grid Engine cluster: DRMAA 1.0 allows one session per process");
          }
          out.add(gridEngine(handlerName, h));
        }
        case "condor" -> out.add(condor(handlerName, h));
        case "kubernetes" -> out.add(kubernetes(name, handlerName, h, problems));
        case "" -> {
          // reported as missing
        }
        case "drmaa" -> h.problem("type", "name the batch system behind DRMAA: 'gridengine' (the DRMAA bridge is tested with Grid Engine's"
            + " libdrmaa)");
        default -> {
          String near = Suggest.closest(type, TYPES);
          h.problem("type", "unknown batch system '" + type + "'" + (near != null ? " (did you mean '" + near + "'?)" : "; known: "
              + String.join(", ", TYPES)));
        }
      }
      h.rejectUnknown();
    }
    return out;
  }

  private static GridEngine gridEngine(String handlerName, Fields h) {
    Optional<Path> library = Optional.ofNullable(h.absolutePath("library", false));
    List<String> queues = h.words("queues", List.of(), "a list of cluster queues", "[all.q, long.q]");
    queues.stream().filter(q -> !QUEUE.matcher(q).matches()).forEach(q -> h.problem("queues", "'" + q + "' is not a cluster queue name"));
    String pe = h.string("parallel-environment", "smp", false);
    if (!QUEUE.matcher(pe).matches()) {
      h.problem("parallel-environment", "'" + pe + "' is not a parallel environment's name");
    }
    return new GridEngine(handlerName, library, h.command("qstat", List.of("qstat")), queues, pe,
        h.duration("default-time-limit", Duration.ofHours(1), Duration.ofSeconds(1)));
  }

  private static Condor condor(String handlerName, Fields h) {
    List<String> asUser = h.command("as-user", List.of("/usr/sbin/runuser", "-u", "{user}", "--"));
    if (asUser.stream().noneMatch(w -> w.contains("{user}"))) {
      h.problem("as-user", "must contain {user} where the pilot's account goes, e.g. [/usr/sbin/runuser, -u, \"{user}\", --], was " + asUser);
    }
    return new Condor(handlerName, Optional.ofNullable(h.absolutePath("bin", false)), asUser,
        h.duration("default-time-limit", Duration.ofHours(1), Duration.ofSeconds(1)));
  }

  private static boolean inRange(String id) {
    long v = Long.parseLong(id);
    return v >= 1 && v <= Integer.MAX_VALUE;
  }

  private static Kubernetes kubernetes(String file, String handlerName, Fields h, List<String> problems) {
    Optional<Path> kubeconfig = Optional.ofNullable(h.absolutePath("kubeconfig", false));
    String namespace = h.string("namespace", "", true);
    if (!namespace.isEmpty() && !DNS_LABEL.matcher(namespace).matches()) {
      h.problem("namespace", "'" + namespace + "' must be a Kubernetes namespace: 1-63 lower-case letters, digits and '-'");
    }
    String image = h.string("image", "", true);
    if (image.chars().anyMatch(Character::isWhitespace)) {
      h.problem("image", "'" + image + "' must name a container image, e.g. registry.example.org/coalition-pilot:0.1");
    }
    Map<String, Uid> uids = new LinkedHashMap<>();
    Node node = h.node("uids");
    if (node == null || node.value() == null) {
      h.problem("uids", "is required: the uid and gid each mapped local account's pods run as, e.g. {alice: \"1001:1001\"}");
    } else {
      Fields u = Fields.of(file, h.prefix() + ".uids", node, problems);
      if (node.value() instanceof Map<?, ?> m) {
        for (Object k : m.keySet()) {
          String account = (String) k;
          String value = u.string(account, "", true);
          var match = java.util.regex.Pattern.compile("([0-9]{1,10}):([0-9]{1,10})").matcher(value);
          if (account.equals("root") || !ACCOUNT.matcher(account).matches()) {
            u.problem(account, "is not an unprivileged local account; foreign jobs never run as root");
          } else if (!match.matches() || !inRange(match.group(1)) || !inRange(match.group(2))) {
            u.problem(account, "must be UID:GID, each 1 to 2147483647 (foreign jobs never run as root or in its group), was '" + value + "'");
          } else {
            uids.put(account, new Uid(Long.parseLong(match.group(1)), Long.parseLong(match.group(2))));
          }
        }
      }
    }
    String priority = h.string("priority-class", "", false);
    if (!priority.isEmpty() && !DNS_LABEL.matcher(priority).matches()) {
      h.problem("priority-class", "'" + priority + "' must be a PriorityClass name: lower-case letters, digits and '-'");
    }
    return new Kubernetes(handlerName, kubeconfig, namespace, image, uids, h.duration("pending-timeout", Duration.ofMinutes(5), Duration.ofSeconds(10)),
        h.duration("finished-retention", Duration.ofMinutes(10), Duration.ofMinutes(1)), priority.isEmpty() ? Optional.empty() : Optional.of(priority));
  }
}
