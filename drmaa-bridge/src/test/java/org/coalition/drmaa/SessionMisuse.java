package org.coalition.drmaa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;
import org.ggf.drmaa.DrmaaException;
import org.ggf.drmaa.InvalidJobException;
import org.ggf.drmaa.InvalidJobTemplateException;
import org.ggf.drmaa.JobTemplate;
import org.ggf.drmaa.NoActiveSessionException;
import org.ggf.drmaa.PartialTimestamp;
import org.ggf.drmaa.PartialTimestampFormat;
import org.ggf.drmaa.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The standard's misuse cases, answered by every back end as Grid Engine's own binding (Debian's
 * {@code libdrmaa1.0-java}, the standard's reference) answers them: measured on the testbed's
 * Grid Engine 8.1.9 on 2026-12-02 and written down in drmaa-bridge/README.md, "Misuse". Part of
 * {@link SessionConformance}, so each back end runs it against its real batch system.
 */
public interface SessionMisuse {
  /** An id in every back end's form that no batch system here has given out. */
  String UNKNOWN = "999999";

  /**
   * The suite's initialised session.
   *
   * @return it
   */
  Session session();

  /**
   * The suite's world-writable jobs folder.
   *
   * @return it
   */
  Path dir();

  /**
   * A template that runs a shell script, its output in {@code out}.
   *
   * @param script the script
   * @param out the output file
   * @return the template
   * @throws DrmaaException when the session refuses it
   */
  JobTemplate shell(String script, Path out) throws DrmaaException;

  @Test
  default void aMalformedJobIdIsAnIllegalArgumentOnEveryCall() {
    Session s = session();
    for (String id : List.of("abc", "", "12.x")) {
      assertThrows(IllegalArgumentException.class, () -> s.control(id, Session.HOLD), "control(" + id + ")");
      assertThrows(IllegalArgumentException.class, () -> s.wait(id, Session.TIMEOUT_NO_WAIT), "wait(" + id + ")");
      assertThrows(IllegalArgumentException.class, () -> s.getJobProgramStatus(id), "getJobProgramStatus(" + id + ")");
      assertThrows(IllegalArgumentException.class, () -> s.synchronize(List.of(id), Session.TIMEOUT_NO_WAIT, true), "synchronize(" + id + ")");
    }
  }

  @Test
  default void aNullJobIdIsANullPointerNotACrash() {
    Session s = session();
    // a null passed on to a C library crashed the JVM (SIGSEGV) before
    assertThrows(NullPointerException.class, () -> s.control(null, Session.HOLD));
    assertThrows(NullPointerException.class, () -> s.wait(null, Session.TIMEOUT_NO_WAIT));
    assertThrows(NullPointerException.class, () -> s.getJobProgramStatus(null));
    assertThrows(NullPointerException.class, () -> s.synchronize(null, Session.TIMEOUT_NO_WAIT, true));
    assertThrows(NullPointerException.class, () -> s.synchronize(Arrays.asList(UNKNOWN, null), Session.TIMEOUT_NO_WAIT, true));
    assertThrows(NullPointerException.class, () -> s.runJob(null));
    assertThrows(NullPointerException.class, () -> s.deleteJobTemplate(null));
  }

  @Test
  default void anUnknownJobIsAnInvalidJobButSynchronizeHasNothingToWaitFor() throws DrmaaException {
    Session s = session();
    assertThrows(InvalidJobException.class, () -> s.control(UNKNOWN, Session.HOLD));
    assertThrows(InvalidJobException.class, () -> s.wait(UNKNOWN, Session.TIMEOUT_NO_WAIT));
    assertThrows(InvalidJobException.class, () -> s.getJobProgramStatus(UNKNOWN));
    s.synchronize(List.of(UNKNOWN), Session.TIMEOUT_NO_WAIT, true);
    s.synchronize(List.of(UNKNOWN), 2, false);
    s.synchronize(List.of(), Session.TIMEOUT_NO_WAIT, true);
    assertThrows(IllegalArgumentException.class, () -> s.wait(UNKNOWN, -5), "a timeout below TIMEOUT_WAIT_FOREVER");
  }

  @Test
  default void aDeletedTemplateRefusesEveryUseButListingItsAttributes() throws DrmaaException {
    JobTemplate t = session().createJobTemplate();
    t.setRemoteCommand("/bin/true");
    session().deleteJobTemplate(t);
    List<Executable> uses = List.of(() -> t.setRemoteCommand("/bin/false"), t::getRemoteCommand, () -> t.setArgs(List.of("a")), t::getArgs,
        () -> t.setJobName("x"), t::getJobName, () -> t.setStartTime(new PartialTimestamp()), t::getStartTime, () -> t.setJoinFiles(true),
        () -> session().deleteJobTemplate(t), () -> session().runJob(t));
    for (Executable use : uses) {
      assertThrows(InvalidJobTemplateException.class, use);
    }
    assertFalse(t.getAttributeNames().isEmpty(), "its attribute names still answer, as the reference's do");
  }

  @Test
  default void anExitedSessionsTemplatesAreRefusedAndItsCallsNeedInit() throws DrmaaException {
    Session s = session();
    JobTemplate t = s.createJobTemplate();
    s.exit();
    try {
      assertThrows(InvalidJobTemplateException.class, () -> t.setJobName("after-exit"));
      assertThrows(NoActiveSessionException.class, s::createJobTemplate);
      assertThrows(NoActiveSessionException.class, () -> s.control(UNKNOWN, Session.HOLD));
      assertThrows(NoActiveSessionException.class, s::exit);
    } finally {
      s.init("");
    }
    assertThrows(InvalidJobTemplateException.class, () -> s.runJob(t), "a template of the session before it is not this one's");
  }

  @Test
  default void aStartTimesModifierIsKeptThoughTheFormCannotWriteIt() throws Exception {
    Path out = dir().resolve("modified-start.out");
    JobTemplate t = shell("echo started", out);
    Calendar inAnHour = Calendar.getInstance();
    inAnHour.add(Calendar.HOUR_OF_DAY, 1);
    PartialTimestamp start = new PartialTimestamp(inAnHour.get(Calendar.HOUR_OF_DAY), inAnHour.get(Calendar.MINUTE), 0);
    start.setModifier(Calendar.DAY_OF_MONTH, -1); // the day before an hour from now: past, so now
    t.setStartTime(start);
    String text = new PartialTimestampFormat().format(t.getStartTime()); // Grid Engine's tutorials print it so
    assertEquals(String.format("%02d:%02d:00", inAnHour.get(Calendar.HOUR_OF_DAY), inAnHour.get(Calendar.MINUTE)), text);
    // dropping the modifier would hold the job for an hour, past this wait
    assertEquals(0, session().wait(session().runJob(t), SessionConformance.JOB_WAIT).getExitStatus());
    assertEquals("started\n", Files.readString(out));
  }
}
