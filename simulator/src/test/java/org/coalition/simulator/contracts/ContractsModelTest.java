package org.coalition.simulator.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.coalition.simulator.swf.SwfJob;
import org.coalition.simulator.swf.SwfTrace;
import org.junit.jupiter.api.Test;

class ContractsModelTest {
  /**
   * Busy mornings (hours 0-5: 60 ten-minute one-core jobs an hour, 10 cores' worth), quiet
   * afternoons and nights (one ten-minute job an hour), for {@code days}.
   */
  private static SwfTrace dailyPeaks(int days) {
    List<SwfJob> jobs = new ArrayList<>();
    for (int d = 0; d < days; d++) {
      for (int h = 0; h < 24; h++) {
        int count = h < 6 ? 60 : 1;
        for (int k = 0; k < count; k++) {
          double submit = d * 86_400.0 + h * 3600 + k * 3600.0 / count;
          jobs.add(new SwfJob(jobs.size() + 1, submit, 0, 600, 1, -1, -1, 1, -1, -1, SwfJob.COMPLETED, 1, 1, 1, 1, 1, -1, -1));
        }
      }
    }
    return new SwfTrace(Path.of("peaks.swf"), Map.of(), jobs);
  }

  @Test
  void sitesWhosePeaksFallAtOtherHoursTradeBlocksAndEveryOneWaitsLess() {
    // Four sites 6 h apart: at any hour two are in their morning peak and two are quiet.
    ContractsResult r = new ContractsModel(new ContractsConfig(4, 6, 8, 4, 1, 1), dailyPeaks(8)).run();
    assertTrue(r.contracts() > 0, "no contract formed");
    for (ContractsResult.Site s : r.perSite()) {
      assertTrue(s.bought() > 0 && s.sold() > 0, "site " + s.site() + " bought " + s.bought() + ", sold " + s.sold());
      assertTrue(s.waitContracts() < s.waitAlone(), "site " + s.site() + ": " + s.waitContracts() + " s with contracts, " + s.waitAlone()
          + " s alone");
    }
    assertEquals(0, r.worseOffContracts());
    double fees = r.perSite().stream().mapToDouble(ContractsResult.Site::credit).sum();
    assertEquals(0, fees, 1e-6, "holding fees move credit between sites, they make none");
  }

  @Test
  void twoSitesTradeAtHalfTheBlocksValueSinceTheValuesBoundsPriceALonePair() {
    // One buyer and one seller an hour: McAfee's own rule drops the only pair; bounded by the block's value (4 cores x 3,600 s),
    // the pair trades at 7,200 whenever the buyer's ceiling reaches it, and each site's holding fee received is 3,600 a contract.
    ContractsResult r = new ContractsModel(new ContractsConfig(2, 6, 8, 4, 1, 1), dailyPeaks(8)).run();
    assertTrue(r.contracts() > 0, "no contract formed");
    for (ContractsResult.Site s : r.perSite()) {
      assertTrue(s.waitContracts() < s.waitAlone(), "site " + s.site() + ": " + s.waitContracts() + " s with contracts, " + s.waitAlone()
          + " s alone");
      assertEquals(0, s.credit() % 3600, 1e-9, "site " + s.site() + "'s credit is whole holding fees of 3,600: " + s.credit());
    }
  }

  @Test
  void aLogTooShortForTheDaysAskedIsNamed() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ContractsModel(new ContractsConfig(4, 6, 8, 4, 1, 1), new SwfTrace(Path.of("peaks.swf"), Map.of(),
            List.of(new SwfJob(1, 0, 0, 60, 1, -1, -1, 1, -1, -1, SwfJob.COMPLETED, 1, 1, 1, 1, 1, -1, -1)))));
    assertTrue(e.getMessage().startsWith("peaks.swf: site "), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new ContractsConfig(4, 1, 8, 4, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> new ContractsConfig(4, 6, 8, 9, 1, 1));
  }
}
