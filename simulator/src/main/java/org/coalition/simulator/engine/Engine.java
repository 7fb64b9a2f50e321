package org.coalition.simulator.engine;

import java.util.Arrays;

/**
 * A discrete-event engine: a clock and a calendar of events, fired in time order; events at the
 * same time fire in the order they were scheduled, so a run is deterministic. The calendar is a
 * binary heap over parallel arrays (no boxing, no comparator), because trace replays fire
 * millions of events.
 */
public final class Engine {
  /** Something that happens at a point in simulated time. */
  @FunctionalInterface
  public interface Event {
    void fire(Engine engine);
  }

  private double[] times = new double[64];
  private long[] sequence = new long[64];
  private Event[] events = new Event[64];
  private int size;
  private long scheduled;
  private long fired;
  private double now;

  /** The time of the event being fired (or of the last one fired). */
  public double now() {
    return now;
  }

  /** Events fired so far. */
  public long fired() {
    return fired;
  }

  /** Events waiting in the calendar. */
  public int pending() {
    return size;
  }

  /** Schedules {@code event} at {@code time}, which must not be before {@link #now()}. */
  public void schedule(double time, Event event) {
    if (!(time >= now)) {
      throw new IllegalArgumentException("cannot schedule an event at " + time + ", before now (" + now + ")");
    }
    if (size == times.length) {
      int capacity = size * 2;
      times = Arrays.copyOf(times, capacity);
      sequence = Arrays.copyOf(sequence, capacity);
      events = Arrays.copyOf(events, capacity);
    }
    int i = size++;
    long seq = scheduled++;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (!before(time, seq, parent)) {
        break;
      }
      move(parent, i);
      i = parent;
    }
    set(i, time, seq, event);
  }

  /** Fires events in order until none is left. */
  public void run() {
    runUntil(Double.POSITIVE_INFINITY);
  }

  /** Fires every event scheduled at or before {@code limit}; later ones stay in the calendar. */
  public void runUntil(double limit) {
    while (size > 0 && times[0] <= limit) {
      Event event = events[0];
      now = times[0];
      removeHead();
      fired++;
      event.fire(this);
    }
  }

  private void removeHead() {
    int last = --size;
    double time = times[last];
    long seq = sequence[last];
    Event event = events[last];
    events[last] = null;
    if (last == 0) {
      return;
    }
    int i = 0;
    while (true) {
      int child = 2 * i + 1;
      if (child >= last) {
        break;
      }
      if (child + 1 < last && before(times[child + 1], sequence[child + 1], child)) {
        child++;
      }
      if (!before(times[child], sequence[child], time, seq)) {
        break;
      }
      move(child, i);
      i = child;
    }
    set(i, time, seq, event);
  }

  private boolean before(double time, long seq, int slot) {
    return before(time, seq, times[slot], sequence[slot]);
  }

  private static boolean before(double time, long seq, double otherTime, long otherSeq) {
    return time < otherTime || (time == otherTime && seq < otherSeq);
  }

  private void move(int from, int to) {
    set(to, times[from], sequence[from], events[from]);
  }

  private void set(int slot, double time, long seq, Event event) {
    times[slot] = time;
    sequence[slot] = seq;
    events[slot] = event;
  }
}
