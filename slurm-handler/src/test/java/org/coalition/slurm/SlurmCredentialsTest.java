package org.coalition.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicReference;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlurmCredentialsTest {
  @TempDir
  Path dir;

  @Test
  void aTokenFileIsReadAsScontrolPrintsItAndOnlyForItsUser() throws Exception {
    Path file = dir.resolve("token");
    Files.writeString(file, "SLURM_JWT=abc.def.ghi\n");
    SlurmCredentials credentials = SlurmCredentials.tokenFile("alice", file);
    assertEquals(new SlurmCredentials.Token("alice", "abc.def.ghi"), credentials.forUser("alice"));
    HandlerException other = assertThrows(HandlerException.class, () -> credentials.forUser("bob"));
    assertEquals(Category.AUTHENTICATION, other.category());
    assertTrue(other.getMessage().contains("JWT key"), other.getMessage());
  }

  @Test
  void aMissingTokenFileIsAnAuthenticationErrorNamingIt() {
    Path file = dir.resolve("absent");
    HandlerException e = assertThrows(HandlerException.class, () -> SlurmCredentials.tokenFile("alice", file).forUser("alice"));
    assertEquals(Category.AUTHENTICATION, e.category());
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
  }

  @Test
  void keySignedTokensCarryTheUserAndLifespanAndAreRenewedBeforeExpiry() throws Exception {
    Path key = dir.resolve("jwt.key");
    Files.write(key, "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII));
    Instant t0 = Instant.parse("2026-11-21T00:00:00Z");
    SlurmCredentials at0 = SlurmCredentials.key(key, Duration.ofMinutes(10), Clock.fixed(t0, ZoneOffset.UTC));
    SlurmCredentials.Token token = at0.forUser("coalition-user");
    JsonNode claims = new ObjectMapper().readTree(Base64.getUrlDecoder().decode(token.token().split("\\.")[1]));
    assertEquals("coalition-user", claims.get("sun").asText());
    assertEquals(t0.getEpochSecond(), claims.get("iat").asLong());
    assertEquals(t0.getEpochSecond() + 600, claims.get("exp").asLong());
    assertEquals(token, at0.forUser("coalition-user"), "cached while fresh");
    assertNotEquals(token, SlurmCredentials.key(key, Duration.ofMinutes(10), Clock.fixed(t0.plusSeconds(1), ZoneOffset.UTC))
        .forUser("coalition-user"), "a new signature at another time");
  }

  @Test
  void aTokenIsRenewedAtFourFifthsOfItsLifespanNotBefore() throws Exception {
    Path key = dir.resolve("jwt.key");
    Files.write(key, "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII));
    Instant t0 = Instant.parse("2026-11-21T00:00:00Z");
    AtomicReference<Instant> now = new AtomicReference<>(t0);
    Clock clock = new Clock() {
      @Override
      public ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        return now.get();
      }
    };
    SlurmCredentials credentials = SlurmCredentials.key(key, Duration.ofMinutes(10), clock);
    SlurmCredentials.Token first = credentials.forUser("coalition-user");
    now.set(t0.plus(Duration.ofMinutes(8)).minusSeconds(1));
    assertEquals(first, credentials.forUser("coalition-user"), "7 min 59 s into a 10-minute token: still the same one");
    now.set(t0.plus(Duration.ofMinutes(8)));
    SlurmCredentials.Token renewed = credentials.forUser("coalition-user");
    assertNotEquals(first, renewed, "8 min into a 10-minute token: renewed, 2 min before it expires");
    JsonNode claims = new ObjectMapper().readTree(Base64.getUrlDecoder().decode(renewed.token().split("\\.")[1]));
    assertEquals(t0.getEpochSecond() + 480, claims.get("iat").asLong());
    assertEquals(t0.getEpochSecond() + 480 + 600, claims.get("exp").asLong());
  }

  @Test
  void aUserNameThatIsNotOneIsRefusedBeforeSigning() throws Exception {
    Path key = dir.resolve("jwt.key");
    Files.write(key, new byte[32]);
    SlurmCredentials credentials = SlurmCredentials.key(key, Duration.ofMinutes(10), Clock.systemUTC());
    assertEquals(Category.REJECTED, assertThrows(HandlerException.class, () -> credentials.forUser("x\",\"sun\":\"root")).category());
  }
}
