package org.coalition.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.coalition.api.MungeUsers;
import org.coalition.testbed.Command;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code coalition job ID} run by an ordinary user, from the shipped jar: it proves who it runs as
 * with a MUNGE credential of its own (the testbed's munged), which a daemon's {@link MungeUsers}
 * decodes to that user. The daemon's side of the exchange is {@code DaemonApiIT}'s.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class JobCommandIT {
  @Test
  void anOrdinaryUserAsksWithACredentialThatProvesWhoTheyAre() throws Exception {
    Instance slurm = Testbed.require("slurm22-c1"); // its munged is this host's
    Path jar = Path.of("target", "coalition.jar").toAbsolutePath();
    assertTrue(Files.isRegularFile(jar), jar + " is missing: this test runs after 'mvn package'");
    Path readable = Files.createTempFile("coalition-", ".jar");
    Files.copy(jar, readable, StandardCopyOption.REPLACE_EXISTING);
    readable.toFile().setReadable(true, false);
    AtomicReference<String> authorization = new AtomicReference<>();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      authorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
      byte[] body = "{\"error\":{\"code\":\"FORBIDDEN\",\"message\":\"job 7 is not yours\"}}".getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(403, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    try {
      String user = slurm.get("user");
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      Command.Result r = Command.of(Path.of("/usr/bin/setpriv"), "--reuid=" + user, "--regid=" + user, "--init-groups", java, "-jar",
          readable.toString(), "job", "7", "--url", "http://127.0.0.1:" + server.getAddress().getPort()).run();
      assertEquals(3, r.exitCode(), "the daemon refused: " + r.stderr());
      assertTrue(r.stderr().contains("FORBIDDEN") && r.stderr().contains("job 7 is not yours"), r.stderr());
      String sent = authorization.get();
      assertTrue(sent != null && sent.startsWith("Munge MUNGE:"), "sent: " + sent);
      assertEquals(Optional.of(user), new MungeUsers(List.of("unmunge")).user(sent.substring("Munge ".length())),
          "the credential proves who ran the command");
    } finally {
      server.stop(0);
      Files.deleteIfExists(readable);
    }
  }
}
