package org.coalition.policy.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlacementTest {
  private static final List<Capacity> CAPACITIES = List.of(
      new Capacity("local", true, 10, 2), new Capacity("dear", false, 5, 3), new Capacity("cheap", false, 5, 1));

  @Test
  void localFirstUsesOwnCoresThenTheCheapestContract() {
    Placement.Plan plan = Placement.CON_BLF.place(12, CAPACITIES);
    assertEquals(Map.of("local", 10.0, "cheap", 2.0), plan.placed());
    assertEquals(22, plan.cost(), 1e-12);
  }

  @Test
  void costAwareUsesCheaperContractsBeforeLocalCoresAndDearerOnesLast() {
    Placement.Plan plan = Placement.CON_BCA.place(12, CAPACITIES);
    assertEquals(List.of("cheap", "local"), List.copyOf(plan.placed().keySet()));
    assertEquals(19, plan.cost(), 1e-12);
    assertEquals(List.of("cheap", "local", "dear"), List.copyOf(Placement.CON_BCA.place(18, CAPACITIES).placed().keySet()));
  }

  @Test
  void demandBeyondAllCapacityIsLeftUnplaced() {
    for (Placement p : Placement.values()) {
      assertEquals(5, p.place(25, CAPACITIES).unplaced(), 1e-12, p.name());
    }
  }
}
