package org.coalition.drmaa.examples;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.Tag;

/**
 * The example programs on the testbed's HTCondor 23.9 pool, through condor-handler's factory and
 * HTCondor's tools on the {@code PATH}. The testbed's tools run in its Debian 13 chroot as the
 * testbed's user ({@code COALITION_TESTBED_USER}), so the jobs are that user's while the program
 * runs as root: the program is told that user's home ({@code user.home}), as it would know its
 * own when run as that user.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class CondorExamplesIT extends ExamplesOnABackEnd {
  private final Instance condor = Testbed.require("condor");

  @Override
  protected String factory() {
    return "org.coalition.condor.CondorSessionFactory";
  }

  @Override
  protected Map<String, String> environment() {
    return Map.of("PATH", condor.path("bin") + ":" + System.getenv("PATH"), "COALITION_TESTBED_USER", condor.get("user"));
  }

  @Override
  protected List<String> properties() {
    return List.of("-Duser.home=" + jobsHome());
  }

  @Override
  protected Path jobsFolder() {
    return condor.path("jobs.dir");
  }

  @Override
  protected String jobsHome() {
    return "/home/" + condor.get("user");
  }
}
