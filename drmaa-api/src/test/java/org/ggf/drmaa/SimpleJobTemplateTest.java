package org.ggf.drmaa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The template that only holds values, and the small value classes of the package. */
class SimpleJobTemplateTest {
  @Test
  void holdsWhatIsSetCopiedInAndDefaultsToActive() throws DrmaaException {
    SimpleJobTemplate jt = new SimpleJobTemplate();
    assertNull(jt.getRemoteCommand());
    assertEquals(JobTemplate.ACTIVE_STATE, jt.getJobSubmissionState(), "a job runs unless asked to be held");
    List<String> args = new ArrayList<>(List.of("a b", "c"));
    jt.setArgs(args);
    args.add("later");
    assertEquals(List.of("a b", "c"), jt.getArgs(), "copied in");
    assertThrows(UnsupportedOperationException.class, () -> jt.getArgs().add("x"), "handed out unmodifiable");
    assertThrows(InvalidAttributeValueException.class, () -> jt.setJobSubmissionState(7));
  }

  @Test
  void optionalAttributesAreUnsupportedAndNotListed() throws DrmaaException {
    SimpleJobTemplate jt = new SimpleJobTemplate();
    assertThrows(UnsupportedAttributeException.class, () -> jt.setHardWallclockTimeLimit(60));
    assertThrows(UnsupportedAttributeException.class, jt::getTransferFiles);
    Set<String> names = jt.getAttributeNames();
    assertEquals(15, names.size(), names.toString());
    assertTrue(names.contains("remoteCommand") && names.contains("joinFiles") && !names.contains("transferFiles"), names.toString());
  }

  @Test
  void toStringListsWhatIsSetAndChangesWithIt() throws DrmaaException {
    SimpleJobTemplate jt = new SimpleJobTemplate();
    jt.setRemoteCommand("/bin/sleep");
    assertEquals("{remoteCommand=/bin/sleep, jobSubmissionState=1, blockEmail=false, joinFiles=false}", jt.toString());
    jt.setStartTime(new PartialTimestamp(10, 0, 0));
    jt.setJobName("nap");
    assertEquals("{remoteCommand=/bin/sleep, jobSubmissionState=1, blockEmail=false, startTime=10:00:00, jobName=nap, joinFiles=false}",
        jt.toString());
  }

  @Test
  void versionsOrderByMajorThenMinor() {
    Version v10 = new Version(1, 0);
    assertEquals("1.0", v10.toString());
    assertTrue(v10.compareTo(new Version(0, 9)) > 0 && v10.compareTo(new Version(1, 1)) < 0 && v10.compareTo(v10.clone()) == 0);
    assertEquals(v10, v10.clone());
    assertThrows(IllegalArgumentException.class, () -> new Version(-1, 0));
  }

  @Test
  void fileTransferModeWritesTheStreamsAsTheCBindingDoes() {
    FileTransferMode mode = new FileTransferMode(true, false, true);
    assertEquals("ie", mode.toString());
    FileTransferMode copy = (FileTransferMode) mode.clone();
    copy.setOutputStream(true);
    assertEquals("ioe", copy.toString());
    assertEquals(new FileTransferMode(true, false, true), mode);
  }
}
