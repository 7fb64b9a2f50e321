package org.coalition.policy.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A block type's name gives every member the same good: its partition, its nodes and their cores. */
class BlockTypeTest {
  @Test
  void aNameGivesItsPartitionNodesAndCores() {
    assertEquals("batch", BlockType.partition("batch.cpu16x2"));
    assertEquals(2, BlockType.nodes("batch.cpu16x2"));
    assertEquals(32, BlockType.cores("batch.cpu16x2"));
    assertEquals(16, BlockType.coresPerNode("batch.cpu16x2"));
    assertEquals("gpu", BlockType.partition("gpu.cpu32x1.a100"));
    assertEquals(1, BlockType.nodes("gpu.cpu32x1.a100"));
    assertNull(BlockType.problem("gpu.cpu32x1.a100"));
  }

  @Test
  void whatIsNotOneIsRefusedWithTheForm() {
    for (String bad : new String[] {"batch", "batch.cpu0x1", "Batch.cpu1x1", "batch.cpu4", null}) {
      assertTrue(BlockType.problem(bad).contains("PARTITION.cpuCxN[.FLAVOUR]"), String.valueOf(bad));
      assertThrows(IllegalArgumentException.class, () -> BlockType.nodes(bad));
    }
    assertTrue(BlockType.problem("batch.cpu100000x2").contains("more than"));
  }
}
