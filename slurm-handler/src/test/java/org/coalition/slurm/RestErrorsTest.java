package org.coalition.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.junit.jupiter.api.Test;

/**
 * What slurmrestd's answers become. The real servers' answers are tested in SlurmHandlerIT; a
 * server that sends nonsense cannot be had from real Slurm, so a local HTTP server plays it.
 */
class RestErrorsTest {
  @Test
  void slurmErrorNumbersDecideTheCategory() {
    assertEquals(Category.NOT_FOUND, RestErrors.category(500, List.of(2017), ""));
    assertEquals(Category.REJECTED, RestErrors.category(500, List.of(2000), ""));
    assertEquals(Category.AUTHENTICATION, RestErrors.category(511, List.of(1007), ""));
    assertEquals(Category.UNAVAILABLE, RestErrors.category(500, List.of(1001), ""));
    assertEquals(Category.UNAVAILABLE, RestErrors.category(500, List.of(11), ""), "EAGAIN: the controller is busy or full");
    assertEquals(Category.UNAVAILABLE, RestErrors.category(503, List.of(), ""));
    assertEquals(Category.AUTHENTICATION, RestErrors.category(401, List.of(), "Authentication failure"));
    assertEquals(Category.AUTHENTICATION, RestErrors.category(500, List.of(-1), RestErrors.TOKEN_REFUSED_2205));
    assertEquals(Category.REJECTED, RestErrors.category(422, List.of(), ""));
  }

  @Test
  void theServersWordsAreKept() {
    List<Integer> numbers = new ArrayList<>();
    String words = RestErrors.words("{\"errors\":[{\"description\":\"Batch job submission failed\",\"error_number\":2000,"
        + "\"error\":\"Invalid partition name specified\"}]}", numbers);
    assertEquals("Batch job submission failed: Invalid partition name specified (Slurm error 2000)", words);
    assertEquals(List.of(2000), numbers);
    assertEquals("Authentication failure", RestErrors.words("Authentication failure\n", new ArrayList<>()));
    assertEquals("(no body)", RestErrors.words("", new ArrayList<>()));
  }

  @Test
  void aServerThatSendsNonsenseIsAProtocolErrorAndOneThatSendsAnErrorPageIsUnavailable() throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/slurm/v0.0.42/ping", exchange -> {
      byte[] body = "{\"meta\": {\"slurm\": [1, 2".getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.createContext("/slurm/v0.0.38/ping", exchange -> {
      byte[] body = "<html>502 Bad Gateway</html>".getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(502, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    Path token = Files.createTempFile("token", ".jwt");
    try {
      Files.writeString(token, "t");
      String url = "http://127.0.0.1:" + server.getAddress().getPort();
      SlurmCredentials credentials = SlurmCredentials.tokenFile("root", token);
      HandlerException garbled = assertThrows(HandlerException.class,
          () -> SlurmHandler.connect(SlurmConfig.of(url, credentials, "root").withVersion("v0.0.42")));
      assertEquals(Category.PROTOCOL, garbled.category(), garbled.getMessage());
      assertTrue(garbled.getMessage().contains(url), garbled.getMessage());
      HandlerException gateway = assertThrows(HandlerException.class,
          () -> SlurmHandler.connect(SlurmConfig.of(url, credentials, "root").withVersion("v0.0.38")));
      assertEquals(Category.UNAVAILABLE, gateway.category(), gateway.getMessage());
      assertTrue(gateway.getMessage().contains("502 Bad Gateway"), gateway.getMessage());
    } finally {
      server.stop(0);
      Files.deleteIfExists(token);
    }
  }
}
