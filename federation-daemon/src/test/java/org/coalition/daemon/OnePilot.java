package org.coalition.daemon;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.coalition.coordination.MutableClock;
import org.coalition.coordination.memory.InMemoryFederation;
import org.coalition.daemon.outputs.RunOutputs;
import org.coalition.daemon.pilot.PilotAgent;
import org.coalition.periodic.BalancingPeriod;

/**
 * Two sites on the in-memory federation, {@code home} full and {@code exec} idle, after home's job
 * 7 was published and exec submitted one pilot for it: the pilot's id and the token in its
 * environment (good until it asks for work). For tests of what a pilot's daemon serves.
 */
record OnePilot(Broker home, FakeBatch homeBatch, Broker exec, FakeBatch execBatch, MutableClock clock, String pilot, String envToken) {
  static OnePilot start(Path tmp) {
    MutableClock clock = new MutableClock(Instant.now());
    InMemoryFederation fed = new InMemoryFederation(clock);
    FakeBatch homeBatch = new FakeBatch(4);
    homeBatch.allocatedCores = 4;
    FakeBatch execBatch = new FakeBatch(8);
    Broker home = new Broker(BrokerTest.settings("home", "local:home"), fed.connect("home"), homeBatch, Optional.of(homeBatch),
        new RunOutputs(tmp.resolve("home")), clock);
    Broker exec = new Broker(BrokerTest.settings("exec", "local:exec"), fed.connect("exec"), execBatch, Optional.empty(),
        new RunOutputs(tmp.resolve("exec")), clock);
    Map<String, String> env = queue(home, homeBatch, exec, execBatch, clock);
    return new OnePilot(home, homeBatch, exec, execBatch, clock, env.get(PilotAgent.ID), env.get(PilotAgent.TOKEN));
  }

  /**
   * Starts both brokers, has {@code home}'s user submit job 7 (2 cores) to its full batch system,
   * lets it be published and {@code exec} submit a pilot for it; the pilot's environment.
   */
  static Map<String, String> queue(Broker home, FakeBatch homeBatch, Broker exec, FakeBatch execBatch, MutableClock clock) {
    home.start();
    exec.start();
    homeBatch.userJob("7", 2);
    home.tick();
    new BalancingPeriod(home.coordination()).run();
    clock.advance(Duration.ofSeconds(31));
    home.tick();
    exec.tick();
    return execBatch.submitted.get(0).environment();
  }
}
