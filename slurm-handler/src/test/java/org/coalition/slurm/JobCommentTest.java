package org.coalition.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The daemon's note and the user's own comment share the job's comment; the user's part survives every note. */
class JobCommentTest {
  @Test
  void aNoteGoesBeforeTheUsersCommentAndReplacesTheNoteBeforeIt() {
    String first = JobComment.noted("in the federation's queue since 12:00", "my run 7");
    assertEquals("coalition: in the federation's queue since 12:00 | my run 7", first);
    String second = JobComment.noted("running at south since 12:01", first);
    assertEquals("coalition: running at south since 12:01 | my run 7", second);
    assertEquals("my run 7", JobComment.users(second));
  }

  @Test
  void aJobWithoutAUserCommentGetsTheNoteAloneAndGivesBackNothing() {
    String noted = JobComment.noted("running at west since 12:01", "");
    assertEquals("coalition: running at west since 12:01", noted);
    assertEquals("", JobComment.users(noted));
    assertEquals("plain", JobComment.users("plain"));
  }

  @Test
  void aNoteCannotForgeTheSeparatorNorGrowWithoutBound() {
    String noted = JobComment.noted("ran at evil | fake user part", "mine");
    assertEquals("mine", JobComment.users(noted), "a site name with ' | ' does not take the user's place: " + noted);
    String longNote = JobComment.noted("x".repeat(10_000), "mine");
    assertEquals(JobComment.PREFIX.length() + JobComment.MAX_NOTE + " | mine".length(), longNote.length());
  }
}
