package org.coalition.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class PortsTest {
  /** Draws this many ports, prints them on one line and holds them until its standard input closes: another test JVM. */
  static final int DRAWN = 400;

  public static void main(String[] args) throws Exception {
    System.out.println(Arrays.stream(Ports.free(DRAWN)).mapToObj(Integer::toString).collect(Collectors.joining(" ")));
    System.out.flush();
    System.in.read();
  }

  @Test
  void portsAreDistinctAndInTheReservedRange() {
    int[] ports = Ports.free(50);
    assertEquals(50, Arrays.stream(ports).distinct().count(), Arrays.toString(ports));
    assertTrue(Arrays.stream(ports).allMatch(p -> p >= Ports.FIRST && p <= Ports.LAST), Arrays.toString(ports));
  }

  /**
   * Two JVMs each draw 400 of the range's 1,000 ports from a random start: without the locks they
   * would share some four times in five. They share none.
   */
  @Test
  void anotherJvmNeverDrawsAPortThisOneHolds() throws Exception {
    Process other = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), PortsTest.class.getName()).redirectErrorStream(true).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(other.getInputStream(), StandardCharsets.US_ASCII));
      String line = out.readLine();
      if (line == null || !line.matches("[0-9 ]+")) {
        // what else it said: the rest of its output, read to its end only now (it waits for its input to close)
        other.getOutputStream().close();
        throw new AssertionError("the other JVM printed its ports, not: " + line + " " + out.lines().collect(Collectors.joining(" ")));
      }
      Set<Integer> theirs = Arrays.stream(line.trim().split(" ")).map(Integer::valueOf).collect(Collectors.toSet());
      assertEquals(DRAWN, theirs.size(), line);
      Set<Integer> shared = new HashSet<>();
      for (int p : Ports.free(DRAWN)) {
        if (theirs.contains(p)) {
          shared.add(p);
        }
      }
      assertEquals(Set.of(), shared, "ports both JVMs drew");
    } finally {
      other.getOutputStream().close();
      assertTrue(other.waitFor(30, TimeUnit.SECONDS), "the other JVM ended");
    }
  }
}
