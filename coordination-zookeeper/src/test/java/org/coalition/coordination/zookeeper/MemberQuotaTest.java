package org.coalition.coordination.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MemberQuotaTest {
  @Test
  void aHomeKeepsRoomForEachJobsClaimAndResult() {
    MemberQuota q = new MemberQuota(10, 1L << 20);
    assertTrue(q.fits(0, 0, 3, 300), "the folder and three jobs with their claims and results: 10 nodes");
    assertFalse(q.fits(0, 0, 4, 400), "a fourth job would leave a claim no room");
    assertFalse(q.fits(3, 300, 1, 100), "nor beside three published");
  }

  @Test
  void bytesCountTheRecordsAndTheRoomKeptForClaimsAndResults() {
    MemberQuota q = new MemberQuota(1_000, MemberQuota.MIN_BYTES + 2 * MemberQuota.BYTES_KEPT_PER_JOB);
    long room = q.bytes() - 3 * MemberQuota.BYTES_KEPT_PER_JOB;
    assertTrue(q.fits(1, 0, 2, room), "records filling what three jobs' kept room leaves");
    assertFalse(q.fits(1, 0, 2, room + 1), "one byte more");
    assertFalse(q.fits(1, room, 2, 1), "the folder's bytes now count");
  }

  @Test
  void aQuotaBelowOneJobsWorthIsRefusedNamingBothBounds() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new MemberQuota(3, 1L << 20));
    assertTrue(e.getMessage().contains("at least 4 nodes and " + MemberQuota.MIN_BYTES + " bytes"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new MemberQuota(100, MemberQuota.MIN_BYTES - 1));
  }

  @Test
  void anOperatorReadsItInMebibytes() {
    assertEquals("10000 nodes, 16 MiB", MemberQuota.DEFAULT.toString());
    assertEquals("10 nodes, 300000 bytes", new MemberQuota(10, 300_000).toString());
  }
}
