package org.coalition.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.coalition.policy.fairness.Utility;

/**
 * One site's configuration, as read from its YAML site file by {@link SiteConfigReader}: every
 * value typed and checked. docs/site-file.md describes each key with its default.
 */
public record SiteConfig(
    String site,
    Federation federation,
    List<Handler> handlers,
    Map<String, String> accounts,
    Sharing sharing,
    Pilots pilots,
    Http http,
    Path spool) {

  /** How the site reaches its federation's ZooKeeper ensemble and who it is there. */
  public record Federation(String name, String zookeeper, Path secretFile, Duration sessionTimeout) {}

  /** How much the site shares, and how it picks whom to serve. */
  public record Sharing(double exposureThreshold, double participation, Duration balancingPeriod, Policy policy, Utility utility,
      Duration publishAfter) {}

  /** Pilot jobs: where they go and how they are kept in check. */
  public record Pilots(String partition, Duration pendingLimit, Duration heartbeat, int maxPending, java.util.List<String> command) {}

  /** The daemon's HTTP API. Without {@code tls} it serves plain HTTP, which the reader allows only on loopback. */
  public record Http(String bind, int port, Optional<Tls> tls, Path operatorTokenFile) {}

  public record Tls(Path keystore, Path passwordFile) {}

  /** The job-selection policy; the daemon implements DirectContr (FairShare and RoundRobin are the simulator's baselines). */
  public enum Policy { DIRECT_CONTR }

  /** A local batch system the daemon drives. */
  public sealed interface Handler permits Slurm, GridEngine, Condor, Kubernetes, Local {
    String name();
  }

  /**
   * Slurm through slurmrestd. Credentials: a token file for the observer user, or the JWT key
   * (the daemon then mints tokens per mapped account).
   */
  public record Slurm(String name, String url, String observer, Optional<Path> tokenFile, Optional<Path> jwtKey,
      Optional<String> version, Optional<Path> results, java.util.List<String> scontrol) implements Handler {}

  /**
   * Grid Engine through its DRMAA 1.0 library ({@code library}, or {@code $DRMAA_LIBRARY_PATH}),
   * load through {@code qstat}; {@code queues} are the cluster queues whose slots the site lends
   * (empty for all), {@code parallelEnvironment} the PE of pilots of more than one core.
   */
  public record GridEngine(String name, Optional<Path> library, List<String> qstat, List<String> queues, String parallelEnvironment,
      Duration defaultTimeLimit) implements Handler {}

  /**
   * HTCondor through its command-line tools, in {@code bin} or on the PATH; {@code asUser} is the
   * command before {@code condor_submit} that submits as a pilot's account ({@code {user}} replaced).
   */
  public record Condor(String name, Optional<Path> bin, List<String> asUser, Duration defaultTimeLimit) implements Handler {}

  /** Jobs as local processes on the daemon's machine (the demo's batch system; for trials, not production). */
  public record Local(String name, int cores) implements Handler {}

  /**
   * Kubernetes: pilots as {@code batch/v1} Jobs in {@code namespace}, running {@code image} as the
   * uid and gid {@code uids} gives their local account. Credentials: {@code kubeconfig}, or else
   * {@code $KUBECONFIG}, {@code ~/.kube/config}, or the pod's service account.
   */
  public record Kubernetes(String name, Optional<Path> kubeconfig, String namespace, String image, Map<String, Uid> uids,
      Duration pendingTimeout, Duration finishedRetention, Optional<String> priorityClass) implements Handler {}

  /** The uid and gid a local account's pods run as (Kubernetes has no accounts of its own). */
  public record Uid(long uid, long gid) {}
}
