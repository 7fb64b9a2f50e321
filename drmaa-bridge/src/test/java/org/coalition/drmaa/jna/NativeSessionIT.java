package org.coalition.drmaa.jna;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Optional;
import org.coalition.drmaa.SessionConformance;
import org.coalition.testbed.Testbed;
import org.ggf.drmaa.Session;
import org.ggf.drmaa.SessionFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The DRMAA conformance suite over Grid Engine 8.1.9's own libdrmaa, through JNA, on the testbed
 * ({@code testbed/up sge}); plus what only a native library can get wrong, and the standard's
 * factory finding this implementation.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class NativeSessionIT extends SessionConformance {
  @Override
  protected Session newSession() {
    return NativeSession.load(Optional.of(Testbed.require("sge").path("drmaa.library")));
  }

  @Override
  protected Path jobsFolder() {
    return Testbed.require("sge").path("jobs.dir");
  }

  @Override
  protected String drmSystemPrefix() {
    return "SGE ";
  }

  @Override
  protected String stayQueuedSpecification() {
    // No host has this architecture, so the job waits as qw; -w n because DRMAA refuses what it cannot schedule (and qsub -a would be a system hold).
    return "-w n -l arch=no-such-arch";
  }

  @Test
  void aMissingLibraryIsAClearError() {
    DrmaaLibraryException e = assertThrows(DrmaaLibraryException.class, () -> NativeSession.load(Optional.of(Path.of("/nonexistent/libdrmaa.so"))));
    assertTrue(e.getMessage().contains("no DRMAA library at /nonexistent/libdrmaa.so"), e.getMessage());
  }

  @Test
  void theStandardFactoryFindsThisImplementationOverTheEnvironmentsLibrary() {
    // The failsafe configuration sets DRMAA_LIBRARY_PATH to the testbed's library; this jar's services file names the factory.
    SessionFactory factory = SessionFactory.getFactory();
    assertInstanceOf(NativeSessionFactory.class, factory);
    Session s = factory.getSession();
    assertTrue(((NativeSession) s).library().toString().endsWith("libdrmaa.so.1.0"));
    assertTrue(s == factory.getSession(), "one session per process");
  }
}
