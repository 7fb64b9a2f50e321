package org.coalition.simulator.swf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Reads the seven real logs of the shared folder and checks the facts its README states about
 * them. The folder is found through the system property {@code coalition.traces} (set by the
 * simulator POM to the shared folder beside the checkout); a missing folder is a failure.
 */
class SwfTracesIT {
  private static Path trace(String name) {
    String dir = System.getProperty("coalition.traces", "");
    Path file = Path.of(dir).resolve(name);
    assertTrue(Files.isRegularFile(file),
        "trace " + file + " not found: the shared folder (../shared beside the checkout) must hold traces/");
    return file;
  }

  private static long count(SwfTrace t, Predicate<SwfJob> p) {
    return t.jobs().stream().filter(p).count();
  }

  private static SwfTrace read(String name, long jobs) {
    long start = System.nanoTime();
    SwfTrace t = SwfReader.read(trace(name));
    assertEquals(jobs, t.jobs().size(), name);
    System.out.printf("[swf] %s: %,d jobs in %d ms%n", name, jobs, (System.nanoTime() - start) / 1_000_000);
    return t;
  }

  @Test
  void hpc2n() {
    SwfTrace t = read("HPC2N-2002-2.2-cln.swf.gz", 202_871);
    assertEquals(240L, t.headerNumber("MaxProcs").orElseThrow());
    assertEquals(878, count(t, j -> j.status() == -1));
    assertTrue(count(t, j -> j.averageCpuTime() != Math.rint(j.averageCpuTime())) > 0, "decimal CPU times");
    assertEquals(0, count(t, j -> j.executable() != -1 || j.queue() != -1 || j.precedingJob() != -1 || j.thinkTime() != -1));
  }

  @Test
  void lpcEgee() {
    SwfTrace t = read("LPC-EGEE-2004-1.2-cln.swf.gz", 234_889);
    assertEquals(14_194, count(t, j -> j.runTime() == -1 && j.allocatedProcessors() == 0));
    assertEquals(0, count(t, j -> j.ran() && j.processors() != 1), "every job is serial");
  }

  @Test
  void metacentrumHasNoHeader() {
    SwfTrace t = read("METACENTRUM-2009-2.swf.gz", 103_656);
    assertTrue(t.header().isEmpty());
    assertEquals(0, count(t, j -> j.requestedProcessors() != -1 || j.requestedTime() != -1));
    // Counted independently with awk on the raw file: 3,712 jobs have run time 0.
    assertEquals(99_944, count(t, SwfJob::ran), "sizes come from field 5");
  }

  @Test
  void das2fs1() {
    SwfTrace t = read("DAS2-fs1-2003-1.swf.gz", 40_315);
    // The traces README says "run time -1 and processors 0"; the file has processors -1 (awk agrees).
    assertEquals(959, count(t, j -> j.runTime() == -1 && j.allocatedProcessors() == -1));
    assertEquals(959, count(t, j -> j.runTime() == -1));
    assertEquals(64L, t.headerNumber("MaxProcs").orElseThrow());
  }

  @Test
  void sdscSp2() {
    SwfTrace t = read("SDSC-SP2-1998-4.2-cln.swf.gz", 59_715);
    assertEquals(5_671, count(t, j -> j.runTime() == -1));
  }

  @Test
  void kthSp2() {
    SwfTrace t = read("KTH-SP2-1996-2.1-cln.swf.gz", 28_476);
    assertEquals(0, count(t, j -> j.averageCpuTime() != -1 || j.usedMemory() != -1));
  }

  @Test
  void ctcSp2() {
    SwfTrace t = read("CTC-SP2-1996-3.1-cln.swf.gz", 77_222);
    assertEquals(0, count(t, j -> j.requestedProcessors() != -1));
    assertTrue(count(t, SwfJob::ran) > 70_000, "sizes come from field 5");
  }
}
