package org.coalition.simulator.contracts;

import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A site's free cores over time, as a step function: {@code free(t)} is the value at the last
 * breakpoint at or before t. Jobs take cores for [start, start + runtime); a contract adds or
 * removes a block's cores for its slot. Times are whole seconds.
 */
final class CoreProfile {
  /** Breakpoint time to free cores from then until the next breakpoint. */
  private final NavigableMap<Long, Integer> steps = new TreeMap<>();

  CoreProfile(int cores) {
    steps.put(Long.MIN_VALUE, cores);
  }

  int freeAt(long t) {
    return steps.floorEntry(t).getValue();
  }

  /** The fewest cores free at any time in [from, to). */
  int minFree(long from, long to) {
    int min = freeAt(from);
    for (int v : steps.subMap(from, false, to, false).values()) {
      min = Math.min(min, v);
    }
    return min;
  }

  /** Adds {@code cores} (negative: removes) over [from, to). */
  void add(long from, long to, int cores) {
    if (to <= from || cores == 0) {
      return;
    }
    split(from);
    split(to);
    for (Map.Entry<Long, Integer> e : steps.subMap(from, true, to, false).entrySet()) {
      e.setValue(e.getValue() + cores);
    }
  }

  /**
   * The earliest start at or after {@code t} at which {@code cores} are free for {@code runtime}
   * seconds: the next breakpoint after each window that falls short, until one fits. The profile
   * must end with enough cores (a site never ends with fewer than a job asks, which the caller
   * ensures by clipping a job to the site's own cores).
   */
  long earliestStart(long t, int cores, long runtime) {
    long start = t;
    while (true) {
      long end = start + Math.max(1, runtime);
      Long shortAt = null;
      Map.Entry<Long, Integer> first = steps.floorEntry(start);
      if (first.getValue() < cores) {
        shortAt = start;
      } else {
        for (Map.Entry<Long, Integer> e : steps.subMap(start, false, end, false).entrySet()) {
          if (e.getValue() < cores) {
            shortAt = e.getKey();
            break;
          }
        }
      }
      if (shortAt == null) {
        return start;
      }
      Long next = steps.higherKey(shortAt);
      while (next != null && steps.get(next) < cores) {
        next = steps.higherKey(next);
      }
      if (next == null) {
        throw new IllegalStateException(cores + " cores are never free after " + start);
      }
      start = next;
    }
  }

  /** Forgets breakpoints before {@code t} (no job will start before it again). */
  void forgetBefore(long t) {
    Map.Entry<Long, Integer> floor = steps.floorEntry(t);
    NavigableMap<Long, Integer> old = steps.headMap(t, false);
    if (old.size() > 1) {
      int value = floor.getValue();
      old.clear();
      steps.put(Long.MIN_VALUE, value);
      if (steps.containsKey(t) && steps.get(t) == value) {
        steps.remove(t);
      }
    }
  }

  private void split(long t) {
    if (!steps.containsKey(t)) {
      steps.put(t, steps.floorEntry(t).getValue());
    }
  }
}
