package org.coalition.drmaa.examples;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.Tag;

/** The example programs on the testbed's Grid Engine 8.1.9, through its libdrmaa and drmaa-bridge's factory; jobs run as the program's user. */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class GridEngineExamplesIT extends ExamplesOnABackEnd {
  private final Instance sge = Testbed.require("sge");

  @Override
  protected String factory() {
    return "org.coalition.drmaa.jna.NativeSessionFactory";
  }

  @Override
  protected Map<String, String> environment() {
    String library = sge.path("drmaa.library").toString();
    // Grid Engine's library links jemalloc, which needs static TLS: preloaded (shared TESTBED.md, section 3).
    return Map.of("SGE_ROOT", sge.get("sge.root"), "SGE_CELL", sge.get("sge.cell"), "DRMAA_LIBRARY_PATH", library, "LD_PRELOAD", library);
  }

  @Override
  protected List<String> properties() {
    return List.of();
  }

  @Override
  protected Path jobsFolder() {
    return sge.path("jobs.dir");
  }

  @Override
  protected String jobsHome() {
    return System.getProperty("user.home");
  }
}
