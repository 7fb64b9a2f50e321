package org.coalition.simulator.cloudshare;

import java.util.Map;

/**
 * What one case gave.
 *
 * @param shapley each site's fair total wait (hours): its Shapley value in the game whose
 *     coalition values are the members' total waits
 * @param waits per algorithm, each site's total wait in the grand coalition
 * @param unfairnessL1 per algorithm, the L1 distance between its waits and {@code shapley}
 * @param unfairnessL2 the same in L2
 */
public record CaseResult(
    CloudShareCase input,
    double[] shapley,
    Map<String, double[]> waits,
    Map<String, Double> unfairnessL1,
    Map<String, Double> unfairnessL2) {
  public CaseResult {
    shapley = shapley.clone();
    waits = Map.copyOf(waits);
    unfairnessL1 = Map.copyOf(unfairnessL1);
    unfairnessL2 = Map.copyOf(unfairnessL2);
  }

  @Override
  public double[] shapley() {
    return shapley.clone();
  }
}
