package org.coalition.simulator.cloudshare;

import java.util.List;
import java.util.Map;

/**
 * What one case gave: one entry per coalition of two or more sites, the grand coalition last.
 */
public record CaseResult(CloudShareCase input, List<Coalition> coalitions) {
  public CaseResult {
    coalitions = List.copyOf(coalitions);
  }

  /** The coalition of all sites. */
  public Coalition grand() {
    return coalitions.get(coalitions.size() - 1);
  }

  /**
   * One coalition judged on its own.
   *
   * @param mask its sites as a bit mask
   * @param members its sites, in order
   * @param shapley each member's fair total wait (hours): its Shapley value in the game restricted
   *     to the members, whose coalition values are their total waits
   * @param waits per algorithm, each member's total wait in this coalition's schedule
   * @param unfairnessL1 per algorithm, the L1 distance between its waits and {@code shapley}
   * @param unfairnessL2 the same in L2
   */
  public record Coalition(
      int mask,
      int[] members,
      double[] shapley,
      Map<String, double[]> waits,
      Map<String, Double> unfairnessL1,
      Map<String, Double> unfairnessL2) {
    public Coalition {
      members = members.clone();
      shapley = shapley.clone();
      waits = Map.copyOf(waits);
      unfairnessL1 = Map.copyOf(unfairnessL1);
      unfairnessL2 = Map.copyOf(unfairnessL2);
    }

    @Override
    public int[] members() {
      return members.clone();
    }

    @Override
    public double[] shapley() {
      return shapley.clone();
    }
  }
}
