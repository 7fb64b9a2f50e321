package org.coalition.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.coalition.config.SiteConfig.Federation;
import org.coalition.config.SiteConfig.Http;
import org.coalition.config.SiteConfig.Pilots;
import org.coalition.config.SiteConfig.Policy;
import org.coalition.config.SiteConfig.Sharing;
import org.coalition.config.SiteConfig.Staging;
import org.coalition.config.SiteConfig.Tls;
import org.coalition.handler.Accounts;
import org.coalition.handler.HandlerFactories;
import org.coalition.handler.HandlerFactory;
import org.coalition.handler.HandlerSettings;
import org.coalition.handler.IdentityDomain;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.SiteFacts;
import org.coalition.handler.config.ConfigSection;
import org.coalition.handler.config.Node;
import org.coalition.handler.config.Suggest;
import org.coalition.handler.config.TextFile;
import org.coalition.policy.fairness.Utility;

/**
 * Reads a site file: YAML, unknown keys refused with a suggestion, every value checked, every
 * problem reported at once with its line. Files the configuration names (secrets, keys) are
 * checked to exist; their contents are read by the daemon when it starts.
 */
public final class SiteConfigReader {
  /** A site's id, as the federation's records check it. */
  static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,31}");

  /** The largest site file read: a site file is a page of YAML. */
  static final long MAX_BYTES = 1 << 20;

  private final HandlerFactories factories;

  /** A reader of site files whose {@code handlers:} may name {@code factories}' batch systems. */
  public SiteConfigReader(HandlerFactories factories) {
    this.factories = factories;
  }

  /** Reads {@code file} with the batch systems on the class path. */
  public static SiteConfig read(Path file) throws IOException {
    return new SiteConfigReader(HandlerFactories.installed()).readFile(file);
  }

  /** Parses {@code text} with the batch systems on the class path; {@code name} names it in messages. */
  public static SiteConfig parse(String name, String text) {
    return new SiteConfigReader(HandlerFactories.installed()).parseText(name, text);
  }

  /** Reads {@code file}; a file that is missing, not a file or not text is a problem as any other ({@link ConfigException}). */
  public SiteConfig readFile(Path file) throws IOException {
    String text;
    try {
      text = TextFile.read(file, "a site file", MAX_BYTES);
    } catch (TextFile.Unreadable e) {
      throw new ConfigException(List.of(e.getMessage()));
    }
    return parseText(file.toString(), text);
  }

  /** Parses {@code text}; {@code name} names it in messages. */
  public SiteConfig parseText(String name, String text) {
    Node root;
    try {
      root = YamlTree.parse(text);
    } catch (IOException e) {
      if (e instanceof YamlTree.Problem p) {
        throw new ConfigException(List.of(name + ":" + p.line + ": " + p.getMessage()));
      }
      int line = e instanceof JsonProcessingException j && j.getLocation() != null ? Math.max(1, j.getLocation().getLineNr()) : 1;
      String what = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
      throw new ConfigException(List.of(name + ":" + line + ": not valid YAML: " + String.valueOf(what).lines().findFirst().orElse("")
          + " (check the indentation and quoting near this line)"));
    }
    List<String> problems = new ArrayList<>();
    ConfigSection top = ConfigSection.of(name, "", root, problems);
    String site = id(top, "site", problems);

    ConfigSection fed = ConfigSection.of(name, "federation", orEmpty(top.node("federation"), top, "federation", problems), problems);
    if (fed.has("secret-file")) {
      // a site file from before ZooKeeper over TLS: say what replaces it rather than "unknown key"
      fed.problem("secret-file", "sites now reach ZooKeeper over TLS with a certificate, not a secret: replace secret-file with identity"
          + " (the site's key store from coalition federation issue) and trust (the federation's trust.p12); docs/site-file.md");
    }
    Federation federation = new Federation(id(fed, "name", problems), fed.string("zookeeper", "", true),
        fed.absolutePath("identity", true), fed.absolutePath("trust", true),
        fed.duration("session-timeout", Duration.ofSeconds(15), Duration.ofSeconds(2)),
        fed.duration("restart-grace", Federation.RESTART_GRACE, Duration.ZERO, Duration.ofMinutes(10),
            "a site that died for good has its foreign runs requeued only after it"));
    fed.rejectUnknown();

    List<Entry> entries = handlers(name, top.node("handlers"), top, problems);
    List<HandlerSettings> handlers = entries.stream().map(Entry::settings).toList();

    Map<String, String> accounts = new LinkedHashMap<>();
    Map<String, String> accountPlaces = new HashMap<>();
    Node acc = top.node("accounts");
    if (acc != null && acc.value() != null) {
      ConfigSection a = ConfigSection.of(name, "accounts", acc, problems);
      accountPlaces.putAll(a.places());
      if (acc.value() instanceof Map<?, ?> m) {
        for (Object k : m.keySet()) {
          String home = (String) k;
          String account = a.string(home, "", true);
          if (!home.equals("*") && !ID.matcher(home).matches()) {
            a.problem(home, "is not a site id (or '*' for every other site)");
          } else if (!Accounts.isUnprivileged(account)) {
            a.problem(home, "'" + account + "' is not an unprivileged local account; foreign jobs never run as root");
          } else {
            accounts.put(home, account);
          }
        }
      }
    }
    for (Entry e : entries) {
      e.settings().check(facts(site, accounts, handlers, top));
    }

    ConfigSection sh = ConfigSection.of(name, "sharing", orEmpty(top.node("sharing"), top, null, problems), problems);
    Sharing sharing = new Sharing(
        sh.number("exposure-threshold", 0.7, 0.01, 1),
        sh.number("participation", 7200, 0, 1e15),
        sh.duration("balancing-period", Duration.ofSeconds(60), Duration.ofSeconds(1)),
        sh.choice("policy", Policy.class, Policy.DIRECT_CONTR),
        sh.choice("utility", Utility.class, Utility.ORIG),
        sh.duration("publish-after", Duration.ofSeconds(30), Duration.ZERO),
        sh.choice("eviction", SiteConfig.Eviction.class, SiteConfig.Eviction.DAEMON));
    sh.rejectUnknown();

    ConfigSection pi = ConfigSection.of(name, "pilots", orEmpty(top.node("pilots"), top, null, problems), problems);
    String partition = pi.string("partition", "", false);
    if (!partition.matches("[A-Za-z0-9._-]{0,64}")) {
      pi.problem("partition", "'" + partition + "' is not a partition or queue name");
    } else if (!partition.isEmpty()) {
      handlers.stream().filter(h -> h.partitionRefused() != null).findFirst().ifPresent(h -> pi.problem("partition",
          "must stay empty with handler " + h.name() + ": " + h.partitionRefused() + " (was '" + partition + "')"));
    }
    Pilots pilots = new Pilots(partition, pi.duration("pending-limit", Duration.ofMinutes(10), Duration.ofSeconds(10)),
        pi.duration("heartbeat", Duration.ofSeconds(30), Duration.ofSeconds(1), Duration.ofMinutes(2),
            "heartbeats renew the claims of running jobs, which lapse after 5 min unrenewed"), pi.integer("max-pending", 16, 1, 10_000),
        pi.command("command", List.of("coalition", "pilot")), pi.flag("multi-node", false),
        pi.duration("idle-exit", Pilots.IDLE_EXIT, Duration.ZERO, Duration.ofMinutes(10), "an idle pilot holds its cores while it waits"),
        pi.duration("extra-time", Pilots.EXTRA_TIME, Duration.ZERO, Duration.ofDays(1), "a pilot's time limit is its first job's and this"),
        pilotOutput(pi));
    pi.rejectUnknown();

    ConfigSection ht = ConfigSection.of(name, "http", orEmpty(top.node("http"), top, null, problems), problems);
    String bind = ht.string("bind", "127.0.0.1", false);
    int port = ht.integer("port", 8443, 1, 65535);
    Optional<Tls> tls = Optional.empty();
    if (ht.has("tls")) {
      ConfigSection t = ConfigSection.of(name, "http.tls", ht.node("tls"), problems);
      tls = Optional.of(new Tls(t.absolutePath("keystore", true), t.absolutePath("password-file", true)));
      t.rejectUnknown();
    } else if (!bind.equals("127.0.0.1") && !bind.equals("localhost") && !bind.equals("::1")) {
      ht.problem("bind", "serving on " + bind + " needs http.tls (keystore, password-file); plain HTTP is allowed on loopback only");
    }
    Http http = new Http(bind, port, tls, ht.absolutePath("operator-token-file", true), url(ht, bind, port, tls.isPresent()),
        ht.has("unmunge") ? Optional.of(ht.command("unmunge", List.of("unmunge"))) : Optional.empty());
    ht.rejectUnknown();

    ConfigSection st = ConfigSection.of(name, "staging", orEmpty(top.node("staging"), top, null, problems), problems);
    long maxJob = st.bytes("max-job", Staging.DEFAULT.maxJobBytes(), 0, 1L << 40);
    long maxSite = st.bytes("max-site", Math.max(Staging.DEFAULT.maxSiteBytes(), maxJob), 0, 1L << 50);
    if (maxSite < maxJob) {
      st.problem("max-site", "must be at least staging.max-job (" + maxJob + " bytes): a site must keep one job's files, was " + maxSite);
    }
    st.rejectUnknown();
    Staging staging = new Staging(maxJob, maxSite);

    List<IdentityDomain> domains = IdentityDomainsReader.read(name, site, top.node("identity-domains"), problems);
    ContractsSettings contracts = ContractsReader.read(name, top.node("contracts"), problems);

    ConfigSection lg = ConfigSection.of(name, "logging", orEmpty(top.node("logging"), top, null, problems), problems);
    SiteConfig.LogSettings logging = new SiteConfig.LogSettings(
        lg.choice("level", SiteConfig.LogSettings.Level.class, SiteConfig.LogSettings.DEFAULT.level()),
        lg.choice("format", SiteConfig.LogSettings.Format.class, SiteConfig.LogSettings.DEFAULT.format()));
    lg.rejectUnknown();
    Path spool = top.absolutePath("spool", false);
    top.rejectUnknown();
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    Map<String, String> places = new HashMap<>(Map.of("federation.identity", fed.where("identity"), "federation.trust", fed.where("trust"),
        "federation.zookeeper", fed.where("zookeeper"), "handlers", top.where("handlers"), "http.port", ht.where("port"),
        "http.operator-token-file", ht.where("operator-token-file"), "http.tls", ht.where("tls"), "spool", top.where("spool")));
    entries.forEach(e -> places.putAll(e.section().places()));
    places.putAll(accountPlaces);
    return new SiteConfig(site, federation, handlers, accounts, sharing, pilots, http, staging,
        spool != null ? spool : Path.of("/var/lib/coalition", site), domains, contracts, logging, Map.copyOf(places));
  }

  /**
   * {@code pilots.output}: a folder on the nodes, written by the accounts pilots run as, where each
   * pilot's batch output goes; a path of plain characters, as batch systems expand others.
   */
  private static Optional<Path> pilotOutput(ConfigSection pi) {
    if (!pi.has("output")) {
      return Optional.empty();
    }
    Path dir = pi.absolutePath("output", false);
    if (dir == null) {
      return Optional.empty();
    }
    // room left for the pilot's file name (coalition-pilot-ID.out) within the path a pilot's spec takes
    if (!PilotSpec.plainPath(dir.toString()) || dir.toString().length() > 900) {
      pi.problem("output", "must be a plain absolute folder (letters, digits, '._+-/', no '..'): batch systems expand '%' and '$' in"
          + " output paths; was '" + dir + "'");
      return Optional.empty();
    }
    return Optional.of(dir);
  }

  private static Node orEmpty(Node n, ConfigSection parent, String required, List<String> problems) {
    if (n == null || n.value() == null) {
      if (required != null) {
        parent.string(required, null, true);
      }
      return new Node(new LinkedHashMap<String, Node>(), n == null ? 1 : n.line());
    }
    return n;
  }

  private static String id(ConfigSection f, String key, List<String> problems) {
    String v = f.string(key, "", true);
    if (!v.isEmpty() && !ID.matcher(v).matches()) {
      f.problem(key, "'" + v + "' is not a valid id (letters, digits, '.', '_', '-'; starts with a letter or digit)");
    }
    return v;
  }

  /** One {@code handlers:} entry: its settings and where it is in the file. */
  private record Entry(HandlerSettings settings, ConfigSection section) {}

  /**
   * The {@code handlers:} list: each entry's {@code type} and {@code name} read here, the rest by
   * the factory of its type; unknown types refused with a suggestion.
   */
  private List<Entry> handlers(String name, Node node, ConfigSection top, List<String> problems) {
    List<Entry> out = new ArrayList<>();
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
      ConfigSection h = ConfigSection.of(name, "handlers[" + i + "]", (Node) list.get(i), problems);
      String raw = h.string("type", "", true);
      Optional<HandlerFactory> factory = factories.find(raw);
      String type = factory.map(HandlerFactory::type).orElse(raw);
      String handlerName = h.string("name", type + (i == 0 ? "" : "-" + i), false);
      if (!NAME.matcher(handlerName).matches()) {
        h.problem("name", "'" + handlerName + "' must be 1-32 lowercase letters, digits, '_' or '-' (with several handlers it prefixes"
            + " job ids: NAME.ID)");
      } else if (!names.add(handlerName)) {
        h.problem("name", "'" + handlerName + "' names two handlers; give each its own name");
      }
      if (factory.isPresent()) {
        List<HandlerSettings> earlier = out.stream().map(Entry::settings).toList();
        factory.get().placementProblem(earlier, list.size()).ifPresent(message -> h.problem("type", message));
        out.add(new Entry(factory.get().read(handlerName, h), h));
      } else if (!type.isEmpty()) { // a missing type is reported as missing
        Optional<String> misnomer = factories.misnomer(type);
        String near = Suggest.closest(type, factories.types());
        h.problem("type", misnomer.orElseGet(() -> "unknown batch system '" + type + "'" + (near != null ? " (did you mean '" + near
            + "'?)" : "; known: " + String.join(", ", factories.types()))));
      }
      h.rejectUnknown();
    }
    return out;
  }

  /** What a handler's settings check against the rest of the file. */
  private static SiteFacts facts(String site, Map<String, String> accounts, List<HandlerSettings> handlers, ConfigSection top) {
    return new SiteFacts() {
      @Override
      public String site() {
        return site;
      }

      @Override
      public Collection<String> accounts() {
        return new LinkedHashSet<>(accounts.values());
      }

      @Override
      public List<HandlerSettings> handlers() {
        return handlers;
      }

      @Override
      public void problem(String key, String message) {
        top.problem(key, message);
      }
    };
  }

  /**
   * {@code http.url}: the address pilots and peers reach the API at. It defaults to the bind
   * address, and must be given when the API listens on every address (0.0.0.0, ::), which no
   * one can connect to by that name.
   */
  private static String url(ConfigSection ht, String bind, int port, boolean tls) {
    String scheme = tls ? "https" : "http";
    boolean wildcard = bind.equals("0.0.0.0") || bind.equals("::") || bind.equals("*");
    String url = ht.string("url", wildcard ? "" : scheme + "://" + (bind.contains(":") ? "[" + bind + "]" : bind) + ":" + port + "/", false);
    if (url.isEmpty()) {
      if (!tls) {
        return ""; // plain HTTP on every address is refused already (http.bind)
      }
      ht.problem("url", "is required when http.bind is " + bind + " (every address): give the address pilots and peers use,"
          + " e.g. " + scheme + "://daemon.example.org:" + port + "/");
      return "";
    }
    try {
      URI u = new URI(url);
      if (!scheme.equals(u.getScheme()) || u.getHost() == null || u.getQuery() != null || u.getFragment() != null) {
        ht.problem("url", "must be an " + scheme + ":// address with a host and no query (the API serves "
            + (tls ? "TLS" : "plain HTTP") + "), was '" + url + "'");
        return "";
      }
      return url.endsWith("/") ? url : url + "/";
    } catch (URISyntaxException e) {
      ht.problem("url", "is not an address: " + e.getMessage());
      return "";
    }
  }
}
