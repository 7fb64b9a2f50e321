package org.coalition.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.zookeeper.ZkFederation;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code coalition federation}: what an operator does to a federation's tree in ZooKeeper.
 * {@code create} makes the tree and its member sites (or adds sites to an existing one); each
 * site's secret and the operator's come from files of mode 0600, never from the command line.
 */
@Command(name = "federation", mixinStandardHelpOptions = true, description = "Create a federation in ZooKeeper and name its member sites.",
    subcommands = FederationCommand.Create.class)
final class FederationCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Without a subcommand: say which there are. */
  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.USAGE;
  }

  @Command(name = "create", mixinStandardHelpOptions = true,
      description = {"Create the federation's tree in ZooKeeper with its member sites, or add sites to it.",
          "Each --site names a site and the file of its secret (one line, at least 16 characters, mode 0600): the same file its daemon's"
              + " site file names as federation.secret-file. Running it again with the same sites changes nothing."})
  static final class Create implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--zookeeper", required = true, paramLabel = "HOSTS", description = "The ensemble, e.g. zk1:2181,zk2:2181,zk3:2181.")
    String zookeeper;

    @Option(names = "--name", required = true, paramLabel = "FEDERATION", description = "The federation's id (its tree in ZooKeeper).")
    String name;

    @Option(names = "--operator-secret-file", required = true, paramLabel = "FILE",
        description = "The operator's ZooKeeper secret (mode 0600): whoever holds it may change the federation.")
    Path operatorSecret;

    @Option(names = "--site", required = true, paramLabel = "NAME=FILE", description = "A member site and its secret's file; repeat for each.")
    Map<String, Path> sites = new LinkedHashMap<>();

    @Option(names = "--json", description = "Print the result as JSON.")
    boolean json;

    @Override
    public Integer call() {
      PrintWriter err = spec.commandLine().getErr();
      Map<String, String> secrets = new TreeMap<>();
      String operator;
      try {
        operator = DaemonCommand.secret(operatorSecret, "the operator's secret");
        for (Map.Entry<String, Path> s : sites.entrySet()) {
          secrets.put(s.getKey(), DaemonCommand.secret(s.getValue(), "the secret of site " + s.getKey()));
        }
      } catch (IOException e) {
        err.println("coalition federation create: " + e.getMessage());
        err.flush();
        return ExitCodes.BAD_INPUT;
      }
      try {
        ZkFederation.bootstrap(zookeeper, name, operator, secrets, Clock.systemUTC());
      } catch (IllegalArgumentException e) {
        err.println("coalition federation create: " + e.getMessage());
        err.flush();
        return ExitCodes.USAGE;
      } catch (CoordinationException e) {
        err.println("coalition federation create: " + e.getMessage());
        err.flush();
        return e.kind() == CoordinationException.Kind.UNAVAILABLE ? ExitCodes.UNAVAILABLE : ExitCodes.INTERNAL;
      }
      PrintWriter out = spec.commandLine().getOut();
      List<String> members = List.copyOf(secrets.keySet());
      if (json) {
        Output.json(out, Map.of("federation", name, "zookeeper", zookeeper, "sites", members));
      } else {
        out.println("federation " + name + " at " + zookeeper + ": member sites " + String.join(", ", members));
        out.flush();
      }
      return ExitCodes.OK;
    }
  }
}
