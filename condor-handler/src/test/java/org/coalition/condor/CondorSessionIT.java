package org.coalition.condor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.coalition.drmaa.SessionConformance;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.ggf.drmaa.ConflictingAttributeValuesException;
import org.ggf.drmaa.DeniedByDrmException;
import org.ggf.drmaa.DrmaaException;
import org.ggf.drmaa.InvalidAttributeValueException;
import org.ggf.drmaa.JobTemplate;
import org.ggf.drmaa.PartialTimestamp;
import org.ggf.drmaa.Session;
import org.ggf.drmaa.SessionFactory;
import org.ggf.drmaa.UnsupportedAttributeException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The DRMAA conformance suite over the testbed's real HTCondor 23.9 pool, through its tools; jobs
 * are submitted as the testbed's ordinary user. Plus what only this back end can get wrong.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
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
    JobTemplate t = shell("id -un; echo \"$COALITION_NATIVE\"", out);
    t.setNativeSpecification("environment = \"COALITION_NATIVE=from-native\"");
    assertEquals(0, session().wait(session().runJob(t), JOB_WAIT).getExitStatus());
    assertEquals(condor.get("user") + "\nfrom-native\n", Files.readString(out));
  }

  @Test
  void whatHTCondorCannotDoIsRefusedByName() throws DrmaaException {
    JobTemplate t = session().createJobTemplate();
    UnsupportedAttributeException deadline = assertThrows(UnsupportedAttributeException.class, () -> t.setDeadlineTime(new PartialTimestamp()));
    assertTrue(deadline.getMessage().startsWith("deadlineTime is not supported"), deadline.getMessage());
    t.setArgs(List.of("x"));
    assertThrows(ConflictingAttributeValuesException.class, () -> session().runJob(t), "no remote command");
    t.setRemoteCommand("/bin/true");
    t.setErrorPath(":/tmp/e\\"); // would join the next line of the submit description to it
    InvalidAttributeValueException backslash = assertThrows(InvalidAttributeValueException.class, () -> session().runJob(t));
    assertTrue(backslash.getMessage().contains("may not end with a backslash"), backslash.getMessage());
    t.setErrorPath(null);
    t.setNativeSpecification("request_cpus = lots of");
    DeniedByDrmException refused = assertThrows(DeniedByDrmException.class, () -> session().runJob(t));
    assertTrue(refused.getMessage().startsWith("drmaa_run_job: condor_submit refused the job: "), refused.getMessage());
  }

  @Test
  void theStandardFactoryGivesThisSessionWhenThePropertyNamesIt() {
    System.setProperty("org.ggf.drmaa.SessionFactory", CondorSessionFactory.class.getName());
    try {
      SessionFactory factory = SessionFactory.getFactory();
      assertInstanceOf(CondorSessionFactory.class, factory);
      assertInstanceOf(CondorSession.class, factory.getSession());
    } finally {
      System.clearProperty("org.ggf.drmaa.SessionFactory");
    }
  }
}
