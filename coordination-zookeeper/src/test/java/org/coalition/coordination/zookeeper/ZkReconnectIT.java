package org.coalition.coordination.zookeeper;

import static org.coalition.testbed.Eventually.waitFor;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.SiteInfo;
import org.coalition.coordination.SiteStatus;
import org.coalition.testbed.zookeeper.Ensemble;
import org.junit.jupiter.api.Test;

/**
 * Clients over TLS ride out server faults on a 3-server ensemble in separate processes: the
 * leader killed and started again (twice), any server restarted, all servers hung for a while.
 * After each, both sites write and see each other's writes.
 */
class ZkReconnectIT {
  @Test
  void sitesKeepWorkingThroughLeaderRestartsAndAHang() throws Exception {
    try (Ensemble ensemble = Ensemble.start(3)) {
      ZkTestFederation fed = new ZkTestFederation(ensemble, Clock.systemUTC(), List.of("a", "b"));
      try (ZkCoordination a = fed.connect("a", Duration.ofSeconds(20));
          ZkCoordination b = fed.connect("b", Duration.ofSeconds(20))) {
        a.join(new SiteInfo("a", "", 8), new SiteStatus("a", 8, 0, 0, 0, 100));
        b.join(new SiteInfo("b", "", 8), new SiteStatus("b", 8, 0, 0, 0, 100));
        int round = 0;
        for (String fault : List.of("leader", "leader", "any", "hang")) {
          switch (fault) {
            case "leader" -> ensemble.restartLeader();
            case "any" -> ensemble.restartServer(new Random(7));
            default -> ensemble.pause(Duration.ofSeconds(3));
          }
          String id = "after-" + fault + "-" + round++;
          waitFor("a publishes after the fault (" + fault + ")", () -> {
            try {
              a.publish(JobSpec.builder(id, "a").cores(1).walltimeSeconds(60).build());
              return true;
            } catch (RuntimeException e) {
              return false;
            }
          });
          waitFor("b sees a's job after the fault (" + fault + ")", () -> b.queue().stream().anyMatch(j -> j.jobId().equals(id)));
        }
      }
    }
  }
}
