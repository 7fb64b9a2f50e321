package org.coalition.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.zookeeper.MemberQuota;
import org.coalition.coordination.zookeeper.ZkFederation;
import org.coalition.coordination.zookeeper.ZkTls;
import org.coalition.handler.config.Durations;
import org.coalition.policy.contracts.MarketCalendar;
import org.coalition.trust.FederationCa;
import org.coalition.trust.StoreFiles;
import org.coalition.trust.TrustException;
import org.coalition.zookeeper.policy.Identity;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code coalition federation}: what an operator does. {@code ca} makes the federation's
 * certificate authority, {@code issue} gives a site, the operator or a ZooKeeper server its key
 * and certificate, {@code create} makes the federation's tree in ZooKeeper with its member sites
 * (or adds sites); {@code add}, {@code rotate} and {@code remove} ({@link FederationMemberCommands})
 * change a member and which of its certificates the servers take. Keys and their passwords live in files of mode 0600, never on the command line.
 */
@Command(name = "federation", mixinStandardHelpOptions = true,
    description = "Make a federation's CA and certificates, create the federation in ZooKeeper, add, rotate, remove and list its members.",
    subcommands = {FederationCommand.Ca.class, FederationCommand.Issue.class, FederationCommand.Create.class, FederationMemberCommands.Add.class,
        FederationMemberCommands.Rotate.class, FederationMemberCommands.Remove.class, FederationCommand.ListMembers.class,
        FederationCommand.Market.class})
final class FederationCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Without a subcommand: say which there are. */
  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.USAGE;
  }

  @Command(name = "ca", mixinStandardHelpOptions = true,
      description = {"Make the federation's certificate authority in DIR (mode 0700): ca.p12, its key, stays there (keep DIR offline);"
          + " trust.p12, its certificate, goes to every site, server and pilot. Refuses to replace a CA: that would void every"
          + " certificate it issued."})
  static final class Ca implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--dir", required = true, paramLabel = "DIR", description = "Where the CA lives.")
    Path dir;

    @Option(names = "--name", required = true, paramLabel = "FEDERATION", description = "The federation's id, named in the CA's certificate.")
    String name;

    @Option(names = "--json", description = "Print the result as JSON.")
    boolean json;

    @Override
    public Integer call() {
      if (!Identity.isName(name)) {
        return fail(spec, "federation ca", "--name '" + name + "' is not a name (letters, digits, '.', '_', '-'; a letter or digit first)",
            ExitCodes.USAGE);
      }
      FederationCa ca;
      try {
        ca = FederationCa.create(dir, name);
      } catch (TrustException e) {
        return fail(spec, "federation ca", e.getMessage(), ExitCodes.BAD_INPUT);
      }
      report(spec, json, Map.of("ca", dir.resolve(FederationCa.CA_STORE).toString(), "trust", ca.trustStore().toString()),
          "CA of federation " + name + " in " + dir + "; give " + ca.trustStore() + " (and its .password file) to every site and server");
      return ExitCodes.OK;
    }
  }

  @Command(name = "issue", mixinStandardHelpOptions = true,
      description = {"Issue NAME's key and certificate into --out (mode 0600, its password in OUT.password).",
          "NAME is a member site, or 'operator' (who may create and change the federation); with --server, NAME is a ZooKeeper"
              + " server's host name. --host adds names and addresses the certificate is valid for (a daemon's HTTPS address)."})
  static final class Issue implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--ca", required = true, paramLabel = "DIR", description = "The CA's folder (coalition federation ca).")
    Path ca;

    @Option(names = "--federation", paramLabel = "FEDERATION", description = "The federation NAME belongs to (not for --server).")
    String federation;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "The key store to write (PKCS#12).")
    Path out;

    @Option(names = "--host", paramLabel = "HOST", description = "A host name or address the certificate is also valid for; repeat for each.")
    List<String> hosts = new ArrayList<>();

    @Option(names = "--server", description = "A ZooKeeper server's certificate: it names no member of any federation.")
    boolean server;

    @Option(names = "--json", description = "Print the result as JSON.")
    boolean json;

    @Parameters(index = "0", paramLabel = "NAME", description = "The site, 'operator', or (with --server) the server's host name.")
    String name;

    @Override
    public Integer call() {
      try {
        FederationCa authority = FederationCa.load(ca);
        String who;
        if (server) {
          authority.issueServer(name, hosts, out);
          who = "ZooKeeper server " + name;
        } else {
          if (federation == null) {
            return fail(spec, "federation issue", "--federation is required for a site or the operator", ExitCodes.USAGE);
          }
          Identity identity = new Identity(federation, name);
          authority.issue(identity, hosts, out);
          who = identity.isOperator() ? "the operator of " + federation : "site " + identity;
        }
        report(spec, json, Map.of("identity", server ? name : federation + "/" + name, "keystore", out.toString(),
            "password", StoreFiles.passwordFile(out).toString()), "issued " + who + " into " + out + " (password in " + StoreFiles.passwordFile(out) + ")");
        return ExitCodes.OK;
      } catch (IllegalArgumentException e) {
        return fail(spec, "federation issue", e.getMessage(), ExitCodes.USAGE);
      } catch (TrustException e) {
        return fail(spec, "federation issue", e.getMessage(), ExitCodes.BAD_INPUT);
      }
    }
  }

  @Command(name = "create", mixinStandardHelpOptions = true,
      description = {"Create the federation's tree in ZooKeeper, with member sites named by --site (whose keys 'issue' makes) or none"
          + " (then 'add' each: it issues the key too). Running it again with the same sites changes nothing.",
          "It connects over TLS as the operator (--identity, from coalition federation issue operator); the federation is the one"
              + " the operator's certificate names."})
  static final class Create implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin Operator operator = new Operator();

    @Option(names = "--site", paramLabel = "NAME", description = "A member site; repeat for each (or add them later: coalition federation add).")
    List<String> sites = new ArrayList<>();

    @CommandLine.Mixin Quota quota = new Quota();

    @Option(names = "--json", description = "Print the result as JSON.")
    boolean json;

    @Override
    public Integer call() {
      ZkTls tls;
      try {
        MemberQuota each = quota.quota();
        tls = operator.tls();
        ZkFederation.bootstrap(operator.zookeeper, tls, sites, each, Clock.systemUTC());
      } catch (IllegalArgumentException e) {
        return fail(spec, "federation create", e.getMessage(), ExitCodes.USAGE);
      } catch (CoordinationException e) {
        int code = switch (e.kind()) {
          case UNAVAILABLE -> ExitCodes.UNAVAILABLE;
          case INVALID, FORBIDDEN -> ExitCodes.BAD_INPUT;
          default -> ExitCodes.INTERNAL;
        };
        return fail(spec, "federation create", e.getMessage(), code);
      }
      String name = tls.who().federation();
      List<String> members = List.copyOf(new TreeSet<>(sites));
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("federation", name);
      result.put("zookeeper", operator.zookeeper);
      result.put("sites", members);
      result.put("memberQuota", Map.of("nodes", quota.nodes, "mib", quota.mib));
      report(spec, json, result, "federation " + name + " at " + operator.zookeeper + ": "
          + (members.isEmpty() ? "no member sites yet (coalition federation add SITE)"
              : "member sites " + String.join(", ", members) + ", each held to " + quota.quota() + " by the servers"));
      return ExitCodes.OK;
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true,
      description = {"List the federation's member sites, the identity each must present, and which are live now.",
          "It connects over TLS as the operator (--identity), as create does."})
  static final class ListMembers implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin Operator operator = new Operator();

    @Option(names = "--json", description = "Print the result as JSON.")
    boolean json;

    @Override
    public Integer call() {
      ZkTls tls = operator.tls();
      List<ZkFederation.Member> members = ZkFederation.members(operator.zookeeper, tls);
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        Output.json(out, Map.of("federation", tls.who().federation(), "zookeeper", operator.zookeeper, "members", members));
      } else {
        List<List<String>> rows = new ArrayList<>();
        members.forEach(m -> rows.add(List.of(m.site(), m.live() ? "live" : "gone", m.identity())));
        Output.table(out, List.of("site", "now", "identity"), rows);
        out.flush();
      }
      return ExitCodes.OK;
    }
  }

  @Command(name = "market", mixinStandardHelpOptions = true,
      description = {"Set the federation's capacity-market calendar, which every member judges bids by: bids for a UTC day's slots are"
          + " sealed until the gate, revealed in the window after it, and cleared by every member when it closes"
          + " (docs/decisions/0020-capacity-contracts.md). Without options: the defaults.",
          "Change it between days' markets: a day whose gate has passed is judged anew. It connects over TLS as the operator (--identity).",
          "With --forget-before DAY it deletes every member's market records of the days before DAY instead (members write each record"
              + " once and cannot delete it); run it from time to time so that the members' market quotas do not fill."})
  static final class Market implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin Operator operator = new Operator();

    @CommandLine.ArgGroup(exclusive = true)
    Gate gate = new Gate();

    @Option(names = "--reveal-window", paramLabel = "DURATION", converter = DurationConverter.class,
        description = "How long after the gate bids are revealed (default: ${DEFAULT-VALUE}).")
    Duration revealWindow = MarketCalendar.DEFAULT.revealWindow();

    @Option(names = "--slot", paramLabel = "DURATION", converter = DurationConverter.class,
        description = "The slots' length, dividing a day (default: ${DEFAULT-VALUE}).")
    Duration slot = MarketCalendar.DEFAULT.slot();

    @Option(names = "--forget-before", paramLabel = "DAY", description = "Delete the market records of the UTC days before DAY"
        + " (YYYY-MM-DD), leaving the calendar as it is.")
    LocalDate forgetBefore;

    @Option(names = "--json", description = "Print the result as JSON.")
    boolean json;

    /** Where the gate falls: before the day it sells, or (an hour-ahead market, the testbed's runs) into it. */
    static final class Gate {
      @Option(names = "--gate-before-day", paramLabel = "DURATION", converter = DurationConverter.class,
          description = "The gate falls this long before the UTC day it sells begins (default: 12h, noon the day before).")
      Duration before;

      @Option(names = "--gate-in-day", paramLabel = "DURATION", converter = DurationConverter.class,
          description = "The gate falls this long into the UTC day it sells; only that day's slots after the reveals close are sold.")
      Duration into;

      Duration beforeDay() {
        return into != null ? into.negated() : before != null ? before : MarketCalendar.DEFAULT.beforeDay();
      }
    }

    @Override
    public Integer call() {
      if (forgetBefore != null) {
        return forget();
      }
      MarketCalendar calendar;
      try {
        calendar = new MarketCalendar(gate.beforeDay(), revealWindow, slot);
      } catch (IllegalArgumentException e) {
        return fail(spec, "federation market", e.getMessage(), ExitCodes.USAGE);
      }
      ZkTls tls = operator.tls();
      try {
        ZkFederation.setMarketCalendar(operator.zookeeper, tls, calendar);
      } catch (CoordinationException e) {
        return fail(spec, "federation market", e.getMessage(), e.kind() == CoordinationException.Kind.UNAVAILABLE ? ExitCodes.UNAVAILABLE
            : ExitCodes.BAD_INPUT);
      }
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("federation", tls.who().federation());
      result.put("gateBeforeDaySeconds", calendar.beforeDay().toSeconds());
      result.put("revealWindowSeconds", calendar.revealWindow().toSeconds());
      result.put("slotSeconds", calendar.slot().toSeconds());
      LocalDate tomorrow = LocalDate.now(ZoneOffset.UTC).plusDays(1);
      report(spec, json, result, "federation " + tls.who().federation() + ": bids for a UTC day's " + Durations.format(calendar.slot())
          + " slots are sealed until its gate and revealed for " + Durations.format(calendar.revealWindow()) + " after it; for " + tomorrow
          + " the gate is " + calendar.gate(tomorrow) + " and the reveals close " + calendar.revealsClose(tomorrow));
      return ExitCodes.OK;
    }

    private int forget() {
      ZkTls tls = operator.tls();
      int days;
      try {
        days = ZkFederation.forgetMarketBefore(operator.zookeeper, tls, forgetBefore);
      } catch (CoordinationException e) {
        return fail(spec, "federation market", e.getMessage(), e.kind() == CoordinationException.Kind.UNAVAILABLE ? ExitCodes.UNAVAILABLE
            : ExitCodes.BAD_INPUT);
      }
      report(spec, json, Map.of("federation", tls.who().federation(), "before", forgetBefore.toString(), "dayFolders", days),
          "federation " + tls.who().federation() + ": deleted " + days + " members' market days before " + forgetBefore);
      return ExitCodes.OK;
    }
  }

  /** How the operator reaches the federation's ensemble: its servers, and the operator's key and the federation's trust store. */
  static final class Operator {
    @Option(names = "--zookeeper", required = true, paramLabel = "HOSTS", description = "The ensemble's TLS ports, e.g. zk1:2281,zk2:2281,zk3:2281.")
    String zookeeper;

    @Option(names = "--identity", required = true, paramLabel = "FILE", description = "The operator's key store (password in FILE.password).")
    Path identity;

    @Option(names = "--trust", required = true, paramLabel = "FILE", description = "The federation's trust store (trust.p12).")
    Path trust;

    ZkTls tls() {
      return new ZkTls(identity, trust);
    }
  }

  /** The quota the servers hold each member named to ({@link MemberQuota}): what {@code create} and {@code add} set. */
  static final class Quota {
    @Option(names = "--member-nodes", paramLabel = "N", description = "The most nodes each member's jobs folder may hold on the servers: its"
        + " published jobs, their claims and results (default: ${DEFAULT-VALUE}; a home publishes a third of it at once).")
    long nodes = MemberQuota.DEFAULT.nodes();

    @Option(names = "--member-mib", paramLabel = "MIB", description = "The most MiB of records each member's jobs folder may hold on the"
        + " servers (default: ${DEFAULT-VALUE}).")
    long mib = MemberQuota.DEFAULT.bytes() >> 20;

    /** The quota asked for; IllegalArgumentException, naming both bounds, when it is below one job's worth. */
    MemberQuota quota() {
      if (mib > Long.MAX_VALUE >> 20) {
        throw new IllegalArgumentException("--member-mib " + mib + " is more than a server could hold");
      }
      return new MemberQuota(nodes, mib << 20);
    }
  }

  static void report(CommandLine.Model.CommandSpec spec, boolean json, Map<String, ?> result, String text) {
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      Output.json(out, result);
    } else {
      out.println(text);
      out.flush();
    }
  }

  static int fail(CommandLine.Model.CommandSpec spec, String command, String message, int code) {
    PrintWriter err = spec.commandLine().getErr();
    err.println("coalition " + command + ": " + message);
    err.flush();
    return code;
  }
}
