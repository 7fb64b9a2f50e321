package org.coalition.condor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.coalition.drmaa.DrmaaException;
import org.coalition.drmaa.JobTemplate;
import org.coalition.drmaa.Session;
import org.coalition.drmaa.SessionConformance;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.Test;

/**
 * The DRMAA conformance suite over the testbed's real HTCondor 23.9 pool, through its tools; jobs
 * are submitted as the testbed's ordinary user. Plus what only this back end can get wrong.
 */
class CondorSessionIT extends SessionConformance {
  private final Instance condor = Testbed.require("condor");

  @Override
  protected Session newSession() {
    return new CondorSession(CondorContractIT.tools(condor), Optional.of(condor.get("user")));
  }

  @Override
  protected Path jobsFolder() {
    return condor.path("jobs.dir");
  }

  @Override
  protected String drmSystemPrefix() {
    return "HTCondor 23.9";
  }

  @Override
  protected String stayQueuedSpecification() {
    // No slot matches, so the job stays idle in the queue.
    return "requirements = False";
  }

  @Test
  void jobsRunAsTheSessionsUserAndANativeSpecificationReachesTheSubmitDescription() throws Exception {
    Path out = dir().resolve("native.out");
    String id = session().runJob(shell("id -un; echo \"$COALITION_NATIVE\"", out).setNativeSpecification("environment = \"COALITION_NATIVE=from-native\""));
    assertEquals(0, session().waitFor(id, JOB_WAIT).exitStatus());
    assertEquals(condor.get("user") + "\nfrom-native\n", Files.readString(out));
  }

  @Test
  void whatHTCondorCannotDoIsRefusedByName() {
    DrmaaException e = assertThrows(DrmaaException.InvalidArgumentException.class,
        () -> session().runJob(new JobTemplate().setRemoteCommand("/bin/true").set(JobTemplate.DEADLINE_TIME, "12:00")));
    assertTrue(e.getMessage().contains(JobTemplate.DEADLINE_TIME), e.getMessage());
    assertThrows(DrmaaException.ConflictingAttributeValuesException.class, () -> session().runJob(new JobTemplate().setArgs(List.of("x"))));
    DrmaaException refused = assertThrows(DrmaaException.DeniedByDrmException.class,
        () -> session().runJob(new JobTemplate().setRemoteCommand("/bin/true").setNativeSpecification("request_cpus = lots of")));
    assertTrue(refused.getMessage().startsWith("drmaa_run_job: condor_submit refused the job: "), refused.getMessage());
  }
}
