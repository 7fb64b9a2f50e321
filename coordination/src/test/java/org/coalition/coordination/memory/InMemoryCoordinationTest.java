package org.coalition.coordination.memory;

import java.time.Duration;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.CoordinationContract;

/** The coordination contract against the in-memory implementation (fast; no ZooKeeper). */
class InMemoryCoordinationTest extends CoordinationContract {
  private final InMemoryFederation federation = new InMemoryFederation(clock, CLAIM_LEASE, MAX_CLAIMS_PER_MEMBER);

  @Override
  protected Coordination newHandle(String site) {
    return federation.connect(site);
  }

  @Override
  protected Coordination newHandle(String site, Duration restartGrace) {
    return federation.connect(site, restartGrace);
  }

  @Override
  protected void expireSession(Coordination handle) {
    ((InMemoryCoordination) handle).expireSession();
  }
}
