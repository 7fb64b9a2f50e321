package org.coalition.testbed.zookeeper;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One ZooKeeper server in a process of its own (QuorumPeerMain on this JVM's class path, which
 * holds the federation's policy), with its folder, its zoo.cfg and its log. Killed, it is killed
 * hard, as a crash is; paused, it is stopped (SIGSTOP), as a hung machine is.
 */
final class ServerProcess {
  final int id;
  final int clientPort;
  final int securePort;
  final int quorumPort;
  final int electionPort;
  private final Path dir;
  private Process process;

  ServerProcess(int id, Path dir, int[] ports) {
    this.id = id;
    this.dir = dir;
    this.clientPort = ports[0];
    this.securePort = ports[1];
    this.quorumPort = ports[2];
    this.electionPort = ports[3];
  }

  /** Writes zoo.cfg: {@code settings} (TLS, policy), a plain port on loopback for the 'srvr' command and {@code peers}. */
  void configure(Map<String, String> settings, List<ServerProcess> peers) throws IOException {
    Files.createDirectories(dir.resolve("data"));
    Files.writeString(dir.resolve("data/myid"), Integer.toString(id));
    List<String> lines = new ArrayList<>(List.of("tickTime=500", "initLimit=20", "syncLimit=10", "dataDir=" + dir.resolve("data"),
        "clientPort=" + clientPort, "clientPortAddress=127.0.0.1", "secureClientPortAddress=127.0.0.1", "maxClientCnxns=0",
        "admin.enableServer=false", "4lw.commands.whitelist=srvr", "minSessionTimeout=1000", "maxSessionTimeout=60000"));
    settings.forEach((k, v) -> lines.add(k + "=" + v));
    if (peers.size() > 1) {
      for (ServerProcess p : peers) {
        lines.add("server." + p.id + "=127.0.0.1:" + p.quorumPort + ":" + p.electionPort);
      }
    }
    Files.write(dir.resolve("zoo.cfg"), lines);
  }

  void start() throws IOException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    // An election that finds no quorum asks again after twice its last wait, up to 60 s by default: a server restarted by a
    // chaos test while its peers were down could wait a minute for the next round (2 s here, as coalition-zookeeper's 5 s).
    process = new ProcessBuilder(java.toString(), "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
        "-Dzookeeper.fastleader.maxNotificationInterval=2000", "-Dzookeeper.root.logger=INFO,CONSOLE", "-cp", System.getProperty("java.class.path"),
        "org.apache.zookeeper.server.quorum.QuorumPeerMain", dir.resolve("zoo.cfg").toString())
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("server.log").toFile())).start();
  }

  /** Kills the process at once (SIGKILL) and waits for it to go. */
  void kill() throws InterruptedException {
    if (process != null) {
      process.destroyForcibly();
      process.waitFor(30, TimeUnit.SECONDS);
      process = null;
    }
  }

  /** SIGSTOP ({@code true}) or SIGCONT: the process keeps its sockets but answers nothing meanwhile. */
  void signal(boolean stop) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", stop ? "-STOP" : "-CONT", Long.toString(process.pid())).inheritIO().start();
    if (kill.waitFor() != 0) {
      throw new IOException("kill " + (stop ? "-STOP " : "-CONT ") + process.pid() + " failed");
    }
  }

  boolean alive() {
    return process != null && process.isAlive();
  }

  /** What the server says it is ({@code leader}, {@code follower}, {@code standalone}) from 'srvr'; empty when it does not answer. */
  String mode() {
    try (Socket socket = new Socket("127.0.0.1", clientPort)) {
      socket.setSoTimeout(2000);
      socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      return answer.lines().filter(l -> l.startsWith("Mode: ")).map(l -> l.substring(6).trim()).findFirst().orElse("");
    } catch (IOException e) {
      return "";
    }
  }

  /** The end of its log, for a failure message. */
  String logTail() {
    try {
      List<String> lines = Files.readAllLines(dir.resolve("server.log"));
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }
}
