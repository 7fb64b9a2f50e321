package org.coalition.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.coalition.coordination.JobOwner;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.MutableClock;
import org.coalition.coordination.memory.InMemoryCoordination;
import org.coalition.coordination.memory.InMemoryFederation;
import org.coalition.daemon.base.BrokerSettings;
import org.coalition.daemon.base.IdentityDomains;
import org.coalition.daemon.outputs.RunOutputs;
import org.coalition.daemon.pilot.PilotAgent;
import org.coalition.daemon.pilot.PilotService.Assignment;
import org.coalition.handler.HomeJob;
import org.coalition.handler.IdentityDomain;
import org.coalition.handler.PilotSpec;
import org.coalition.periodic.BalancingPeriod;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Identity domains (docs/jobs.md): a home names its user only where its own file maps the user,
 * with the working directory only where a domain shares it; an executor runs a job as its user,
 * and in place, only where its own file grants it, whatever the home asks.
 */
class IdentityDomainsTest {
  /** {@code home} maps alice and bob and shares /shared with exec; exec maps alice only. */
  private static final IdentityDomain HOME_SAYS = new IdentityDomain("campus", Set.of("home", "exec"), Set.of("alice", "bob"),
      List.of(Path.of("/shared")));
  private static final IdentityDomain EXEC_SAYS = new IdentityDomain("campus", Set.of("home", "exec"), Set.of("alice", "daemon"),
      List.of(Path.of("/shared")));
  /** This host's ordinary users, as its name service would say: daemon is a system account here. */
  private static final IdentityDomains AT_HOME = new IdentityDomains("home", List.of(HOME_SAYS), name -> !name.equals("daemon"));
  private static final IdentityDomains AT_EXEC = new IdentityDomains("exec", List.of(EXEC_SAYS), name -> !name.equals("daemon"));

  @TempDir Path tmp;

  private static JobSpec job(String home, JobOwner owner) {
    return JobSpec.builder("7", home).cores(1).walltimeSeconds(60).inputs(null).environment(null).layout(null).owner(owner).build();
  }

  @Test
  void aHomeNamesOnlyTheUsersItMapsAndOnlyTheDirectoriesItShares() {
    assertEquals(new JobOwner("alice", "/shared/alice/run"), AT_HOME.ownerOf("alice", "/shared/alice/run"));
    assertEquals(new JobOwner("alice", ""), AT_HOME.ownerOf("alice", "/home/alice/run"), "not shared: the job is staged");
    assertEquals(new JobOwner("alice", ""), AT_HOME.ownerOf("alice", "/shared/../etc"), "normalised first: /etc is not shared");
    assertEquals(new JobOwner("alice", ""), AT_HOME.ownerOf("alice", ""), "no working directory known");
    assertEquals(new JobOwner("alice", "/shared"), AT_HOME.ownerOf("alice", "/shared"));
    assertEquals(new JobOwner("alice", ""), AT_HOME.ownerOf("alice", "/sharedness/x"), "a sibling whose name starts alike is not under it");
    assertEquals(JobOwner.NONE, AT_HOME.ownerOf("carol", "/shared/carol"), "a user no domain maps stays anonymous");
    assertEquals(JobOwner.NONE, IdentityDomains.NONE.ownerOf("alice", "/shared/alice"));
  }

  @Test
  void anExecutorGrantsOnlyWhatItsOwnFileSays() {
    JobOwner alice = new JobOwner("alice", "/shared/alice/run");
    assertEquals(Optional.of("alice"), AT_EXEC.userFor(job("home", alice)));
    assertEquals(Optional.of("/shared/alice/run"), AT_EXEC.placeFor(job("home", alice)));
    assertEquals(Optional.empty(), AT_EXEC.userFor(job("home", new JobOwner("bob", ""))), "the home maps bob, exec does not");
    assertEquals(Optional.empty(), AT_EXEC.userFor(job("rogue", alice)), "a home outside the domain asks for alice: refused");
    assertEquals(Optional.empty(), AT_EXEC.placeFor(job("rogue", alice)));
    assertEquals(Optional.empty(), AT_EXEC.userFor(job("home", new JobOwner("daemon", ""))),
        "listed, but a system account of this host: never mapped");
    assertEquals(Optional.of("alice"), AT_EXEC.userFor(job("home", new JobOwner("alice", "/etc/cron.d"))));
    assertEquals(Optional.empty(), AT_EXEC.placeFor(job("home", new JobOwner("alice", "/etc/cron.d"))),
        "a home that sends a directory exec does not share: runs as alice, but in a sandbox");
    assertEquals(Optional.empty(), AT_EXEC.userFor(job("home", JobOwner.NONE)));
    assertEquals(Optional.empty(), IdentityDomains.NONE.userFor(job("home", alice)));
  }

  @Test
  void aMappedUsersJobRunsAsItsUserInPlaceAndAnotherAsThePoolAccount() {
    MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    InMemoryFederation fed = new InMemoryFederation(clock);
    FakeBatch homeBatch = new FakeBatch(4);
    homeBatch.allocatedCores = 4;
    FakeBatch execBatch = new FakeBatch(8);
    InMemoryCoordination hc = fed.connect("home");
    InMemoryCoordination ec = fed.connect("exec");
    Broker home = new Broker(with(BrokerTest.settings("home", "local:home"), AT_HOME), hc, homeBatch, Optional.of(homeBatch),
        new RunOutputs(tmp.resolve("home")), clock);
    Broker exec = new Broker(with(BrokerTest.settings("exec", "http://127.0.0.1:9/"), AT_EXEC), ec, execBatch, Optional.empty(),
        new RunOutputs(tmp.resolve("exec"), "http://127.0.0.1:9/"), clock);
    home.start();
    exec.start();
    homeBatch.jobs.put("7", HomeJob.builder("7", "alice").cpus(2).timeLimitSeconds(3600).workDir("/shared/alice/run").build());
    homeBatch.jobs.put("8", HomeJob.builder("8", "bob").cpus(2).timeLimitSeconds(3600).workDir("/shared/bob/run").build());
    homeBatch.scripts.put("7", "#!/bin/sh\necho 7\n");
    homeBatch.scripts.put("8", "#!/bin/sh\necho 8\n");
    BalancingPeriod homePeriod = new BalancingPeriod(hc);
    BalancingPeriod execPeriod = new BalancingPeriod(ec);
    Map<String, Assignment> assigned = new TreeMap<>();
    Map<String, String> pilotAccounts = new TreeMap<>();
    for (int i = 0; i < 8 && assigned.size() < 2; i++) {
      homePeriod.run();
      execPeriod.run();
      home.tick();
      exec.tick();
      for (PilotSpec pilot : execBatch.submitted.subList(pilotAccounts.size(), execBatch.submitted.size())) {
        exec.work(pilot.environment().get(PilotAgent.ID), pilot.environment().get(PilotAgent.TOKEN)).ifPresent(a -> {
          assigned.put(a.job(), a);
          pilotAccounts.put(a.job(), pilot.account());
        });
      }
      clock.advance(Duration.ofSeconds(31));
    }
    assertEquals(Set.of("home/7", "home/8"), assigned.keySet(), execBatch.submitted.toString());
    Assignment alice = assigned.get("home/7");
    assertEquals("alice", pilotAccounts.get("home/7"), "both files map alice: her pilot runs as alice");
    assertEquals("alice", alice.account());
    assertEquals("/shared/alice/run", alice.place(), "both files share /shared: in place");
    assertEquals(0, alice.maxFilesBytes(), "nothing to bring back: the files are home already");
    Assignment bob = assigned.get("home/8");
    assertEquals("fed", pilotAccounts.get("home/8"), "exec does not map bob: the home's pool account");
    assertEquals("fed", bob.account());
    assertEquals("", bob.place(), "staged, in a sandbox");
    assertTrue(bob.maxFilesBytes() > 0, "its files come back");
  }

  private static BrokerSettings with(BrokerSettings s, IdentityDomains identities) {
    return s.toBuilder().identities(identities).build();
  }
}
