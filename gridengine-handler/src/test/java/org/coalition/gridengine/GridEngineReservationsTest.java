package org.coalition.gridengine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.coalition.handler.Tool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link GridEngineReservations} against hand-written stand-ins of Grid Engine's tools, for what the
 * real cell shows only by chance of timing (the testbed's cases are in {@code GridEngineReservationsIT}).
 */
class GridEngineReservationsTest {
  @TempDir Path bin;

  /**
   * A released AR leaves {@code qrstat} once its jobs have gone: listed by {@code qrstat -xml}, it
   * may be unknown to {@code qrstat -ar ID} a moment later. That is no reservation, not an error.
   */
  @Test
  void anArThatGoesBetweenTheListingAndItsOwnLookIsNone() throws IOException {
    script("qconf", "exit 0");
    script("qrstat", """
        if [ "$1" = -xml ]; then
          echo "<?xml version='1.0'?><qrstat><ar_summary><id>10</id><name>coalition_s</name></ar_summary></qrstat>"
        else
          echo "<?xml version='1.0'?><qrstat><ar_unknown><id>10</id></ar_unknown></qrstat>"; exit 1
        fi""");
    GridEngineReservations reservations = new GridEngineReservations(new Tool(List.of(bin.resolve("qconf").toString()), Map.of(),
        Duration.ofSeconds(10)));
    assertEquals(Optional.empty(), reservations.show("coalition_s"));
  }

  private void script(String name, String body) throws IOException {
    Path p = bin.resolve(name);
    Files.writeString(p, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
