package org.coalition.containers;

import com.github.dockerjava.api.model.AccessMode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.SELContext;
import com.github.dockerjava.api.model.Volume;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.coalition.testbed.Eventually;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.utility.MountableFile;

/**
 * One site as docker/up makes it: a Slurm cluster on a network of its own (a controller with
 * slurmrestd and slurmdbd, {@code nodes} compute nodes that share /home and the results folder)
 * and the site's Coalition daemon, which is also on the federation's network.
 */
final class SlurmSite implements AutoCloseable {
  final String name;
  final String version;
  final Network network = Network.newNetwork();
  final GenericContainer<?> controller;
  final List<GenericContainer<?>> nodes = new ArrayList<>();
  private GenericContainer<?> daemon;
  private final List<String> volumes = new ArrayList<>();
  private final Logs logs;
  /** Where the daemon keeps the outputs of runs made here (the site file's spool, docker/coalition/site.yaml.template). */
  private final String outputs;
  /** The disk {@link #outputs} is on: 16 MiB of its own, so that a test can fill it. */
  private final SmallDisk outputDisk;

  SlurmSite(String name, String version, int nodeCount, String run, Logs logs) {
    this.name = name;
    this.version = version;
    this.logs = logs;
    String etc = volume(run + "-" + name + "-etc");
    String home = volume(run + "-" + name + "-home");
    String spool = volume(run + "-" + name + "-spool");
    outputs = "/var/lib/coalition/" + name + "/outputs";
    outputDisk = new SmallDisk(run + "-" + name + "-outputs", 16);
    List<String> hosts = new ArrayList<>();
    for (int i = 1; i <= nodeCount; i++) {
      hosts.add(name + "-n" + i);
    }
    controller = Engine.container("coalition/slurm-controller:" + version).withNetwork(network)
        .withNetworkAliases(name + "-ctl").withEnv("CLUSTER", name).withEnv("NODES", String.join(" ", hosts))
        .withCommand("controller").withCreateContainerCmdModifier(logs.hostname(name + "-ctl"))
        .withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withBinds(bind(etc, "/etc/slurm"), bind(home, "/home")))
        .withLogConsumer(logs.to(name + "-ctl")).waitingFor(Engine.untilHealthy(Duration.ofMinutes(3)));
    for (String host : hosts) {
      nodes.add(Engine.container("coalition/site:" + version).withNetwork(network).withNetworkAliases(host)
          .withCommand("node").withCreateContainerCmdModifier(logs.hostname(host))
          .withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withBinds(readOnlyUncopied(etc, "/etc/slurm"), bind(home, "/home"),
              bind(spool, "/var/spool/coalition")))
          .withLogConsumer(logs.to(host)).waitingFor(Engine.untilHealthy(Duration.ofMinutes(3))));
    }
    daemon = Engine.container("coalition/site:" + version).withNetwork(network).withNetworkAliases(name + "-daemon")
        .withCommand("daemon").withEnv("COALITION_DAEMON_ARGS", "--tick 1s").withExposedPorts(8443)
        // three daemons start at once on two cores: the JIT's first tier only, which starts them in less CPU time
        .withEnv("COALITION_JAVA_OPTS", "-Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1")
        .withCreateContainerCmdModifier(logs.hostname(name + "-daemon")).withCreateContainerCmdModifier(Logs.netAdmin())
        .withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withBinds(readOnlyUncopied(etc, "/etc/slurm"), bind(spool, "/var/spool/coalition"),
            new Bind(outputDisk.dir.toString(), new Volume(outputs))))
        .withEnv("COALITION_WAIT_FOR", "zk1:2281 zk2:2281 zk3:2281")
        .withLogConsumer(logs.to(name + "-daemon")).waitingFor(new StartedOnly());
  }

  /** Start returns once the container runs: the daemon joins the federation's network after that, then turns healthy. */
  private static final class StartedOnly extends AbstractWaitStrategy {
    @Override
    protected void waitUntilReady() {
      // the health check is awaited by startDaemon, once the daemon is on both networks
    }
  }

  private String volume(String volumeName) {
    volumes.add(Engine.volume(volumeName));
    return volumeName;
  }

  private static Bind bind(String volume, String path) {
    return new Bind(volume, new Volume(path), AccessMode.rw);
  }

  /**
   * A volume the controller fills, read-only and without Docker's copy of the image's files into
   * it: Docker copies them into a new volume at each container's creation while it is empty, so
   * the controller and two nodes made at once each copied {@code /etc/slurm}'s files, and one
   * creation failed ("mkdir .../plugstack.conf.d: file exists", a CI run of 2026-11-28).
   */
  private static Bind readOnlyUncopied(String volume, String path) {
    return new Bind(volume, new Volume(path), AccessMode.ro, SELContext.DEFAULT, true);
  }

  /** The cluster, controller and nodes together; they wait for each other's keys on their own. */
  void startCluster() {
    List<GenericContainer<?>> all = new ArrayList<>(nodes);
    all.add(controller);
    Startables.deepStart(all).join();
  }

  /**
   * The daemon, with its site file and credentials (docker/credentials in {@code credentials}),
   * joined to the federation's network under its name.
   */
  void startDaemon(String siteFile, Path credentials, Network federation) {
    Path own = credentials.resolve(name);
    daemon.withCopyToContainer(Transferable.of(siteFile, 0600), "/etc/coalition/site.yaml");
    for (String f : List.of("site.p12", "site.p12.password")) {
      daemon.withCopyFileToContainer(MountableFile.forHostPath(own.resolve(f), 0600), "/etc/coalition/" + f);
    }
    daemon.withCopyFileToContainer(MountableFile.forHostPath(credentials.resolve("operator.token"), 0600), "/etc/coalition/operator.token");
    for (String f : List.of("federation-ca.p12", "federation-ca.p12.password")) {
      daemon.withCopyFileToContainer(MountableFile.forHostPath(credentials.resolve(f), 0644), "/etc/coalition/" + f);
    }
    daemon.start();
    Engine.attach(daemon, federation, name + "-daemon");
    Eventually.waitFor(() -> name + "'s daemon to turn healthy (its log: " + logs.tail(name + "-daemon", 6) + ")", Duration.ofMinutes(4),
        Duration.ofSeconds(2), () -> Engine.healthy(daemon));
  }

  GenericContainer<?> daemon() {
    return daemon;
  }

  /**
   * Kills the daemon with SIGKILL (a crash: nothing runs on its way out) and starts it again on
   * the same file system, so it finds its spool and journal; returns once it serves again.
   */
  void crashAndRestartDaemon() {
    Engine.kill(daemon, "KILL");
    awaitStopped();
    restartDaemon();
  }

  /**
   * Upgrades the daemon: {@code docker stop} (SIGTERM, the daemon's clean stop, at most 60 s),
   * the package's jar replaced by {@code jar} (what dpkg does to it on an upgrade), and a start; returns once it serves again. The soak puts the
   * same build back: what it tests is the procedure, not a change between versions.
   */
  void upgradeDaemon(Path jar) {
    Engine.stop(daemon, 60);
    daemon.copyFileToContainer(MountableFile.forHostPath(jar, 0644), "/usr/share/coalition/coalition.jar");
    restartDaemon();
  }

  private void awaitStopped() {
    Eventually.waitFor(name + "'s daemon container to stop", Duration.ofSeconds(30), () -> !Engine.running(daemon));
  }

  private void restartDaemon() {
    long since = Engine.start(daemon);
    logs.follow(daemon, name + "-daemon", since);
    Eventually.waitFor(() -> name + "'s daemon to turn healthy again (its log: " + logs.tail(name + "-daemon", 6) + ")", Duration.ofMinutes(3),
        Duration.ofSeconds(2), () -> Engine.healthy(daemon));
  }

  /** Stops slurmrestd with SIGSTOP: it holds its connections and answers nothing, as a hung service does. */
  void freezeSlurmrestd() {
    Engine.exec(controller, "root", "pkill", "-STOP", "-x", "slurmrestd");
  }

  void thawSlurmrestd() {
    Engine.exec(controller, "root", "pkill", "-CONT", "-x", "slurmrestd");
  }

  /**
   * Fills the disk the daemon keeps run outputs on (a small file system of its own, {@link
   * #outputDisk}) with a ballast file until the disk refuses more.
   */
  void fillOutputDisk() {
    Engine.exec(daemon, "root", "bash", "-c", "head -c 64M /dev/zero >" + outputs + "/ballast 2>/dev/null; df --output=avail " + outputs
        + " | tail -1 | grep -qx ' *0'");
  }

  void emptyOutputDisk() {
    Engine.exec(daemon, "root", "rm", "-f", outputs + "/ballast");
  }

  /** Foreign runs here: running jobs of the per-home accounts (docker/coalition/site.yaml.template). */
  int foreignRunning() {
    String out = run("root", "squeue", "-h", "-u", "fed-north,fed-south,fed-west", "-t", "RUNNING", "-o", "%i");
    return (int) out.lines().filter(l -> !l.isBlank()).count();
  }

  /** A user's command on the controller (the login node), e.g. sbatch as alice. */
  String run(String user, String... command) {
    return Engine.exec(controller, user, command);
  }

  @Override
  public void close() {
    if (daemon != null) {
      daemon.stop();
    }
    nodes.forEach(GenericContainer::stop);
    controller.stop();
    volumes.forEach(Engine::removeVolume);
    outputDisk.close();
    network.close();
  }
}
