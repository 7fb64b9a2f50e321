package org.coalition.slurm;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link SlurmHandler} needs to know of a site.
 *
 * @param url slurmrestd's address, {@code http://host:port}
 * @param observer the user whose token reads the queue (must see every job: root, SlurmUser or an operator)
 * @param version a REST version to use, or empty for the newest both sides speak
 * @param timeout for connecting and for each answer
 * @param unlimitedSeconds what a pending job without a time limit counts as
 * @param fullListEvery how often the whole job list is read again where a state-only poll is used
 *     (catches time limit or size changes made with {@code scontrol update})
 * @param results the folder where remote runs of opted-in jobs are left for coalition-replay (the
 *     {@code results} setting of job_submit.lua), or empty when the site opts no job in
 * @param scontrol the command that runs {@code scontrol} for this cluster (its path, and a wrapper
 *     that sets {@code SLURM_CONF} where needed); it reads opted-in jobs' scripts, which no REST
 *     version serves
 */
public record SlurmConfig(String url, SlurmCredentials credentials, String observer, Optional<String> version, Duration timeout,
    long unlimitedSeconds, Duration fullListEvery, Clock clock, Optional<Path> results, List<String> scontrol) {
  public SlurmConfig {
    Objects.requireNonNull(url, "url");
    if (!url.startsWith("http://") && !url.startsWith("https://")) {
      throw new IllegalArgumentException("slurmrestd url '" + url + "' must start with http:// or https://");
    }
    Objects.requireNonNull(credentials, "credentials");
    Objects.requireNonNull(observer, "observer");
    version = Objects.requireNonNull(version, "version");
    version.ifPresent(v -> {
      if (!SlurmHandler.VERSIONS.contains(v)) {
        throw new IllegalArgumentException("REST version " + v + " is not one this handler speaks: " + SlurmHandler.VERSIONS);
      }
    });
    if (unlimitedSeconds < 1) {
      throw new IllegalArgumentException("unlimitedSeconds must be >= 1, was " + unlimitedSeconds);
    }
    results = Objects.requireNonNull(results, "results");
    results.ifPresent(r -> {
      if (!r.isAbsolute()) {
        throw new IllegalArgumentException("results folder '" + r + "' must be an absolute path, the same job_submit.lua names");
      }
    });
    scontrol = List.copyOf(scontrol);
    if (scontrol.isEmpty() || scontrol.get(0).isBlank()) {
      throw new IllegalArgumentException("the scontrol command must not be empty (default: scontrol on the PATH)");
    }
  }

  /**
   * Defaults: newest version, 60 s timeout (a whole list of 10,000 jobs from 24.11 is some 90 MB),
   * jobs without a limit count as a day, whole list every 10 minutes.
   */
  public static SlurmConfig of(String url, SlurmCredentials credentials, String observer) {
    return new SlurmConfig(url, credentials, observer, Optional.empty(), Duration.ofSeconds(60), 86_400, Duration.ofMinutes(10),
        Clock.systemUTC(), Optional.empty(), List.of("scontrol"));
  }

  public SlurmConfig withVersion(String pinned) {
    return new SlurmConfig(url, credentials, observer, Optional.of(pinned), timeout, unlimitedSeconds, fullListEvery, clock, results, scontrol);
  }

  public SlurmConfig withResults(Path folder) {
    return new SlurmConfig(url, credentials, observer, version, timeout, unlimitedSeconds, fullListEvery, clock, Optional.of(folder), scontrol);
  }

  public SlurmConfig withScontrol(List<String> command) {
    return new SlurmConfig(url, credentials, observer, version, timeout, unlimitedSeconds, fullListEvery, clock, results, command);
  }
}
