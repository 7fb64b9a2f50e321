package org.coalition.slurm;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.coalition.handler.HandlerSettings;

/**
 * A site file's {@code type: slurm} entry: slurmrestd's {@code url}, the {@code observer} user and
 * its credentials (a {@code tokenFile}, or Slurm's {@code jwtKey} to mint tokens per mapped
 * account), the REST {@code version} to pin, the {@code results} folder that makes the cluster's
 * opted-in jobs federable, and the {@code scontrol} command that holds and releases them.
 */
public record SlurmSettings(String name, String url, String observer, Optional<Path> tokenFile, Optional<Path> jwtKey,
    Optional<String> version, Optional<Path> results, List<String> scontrol) implements HandlerSettings {
  @Override
  public String type() {
    return SlurmHandlerFactory.TYPE;
  }

  /** A Slurm cluster's users' jobs are published only when it has a results folder to replay them. */
  @Override
  public boolean publishesHomeJobs() {
    return results.isPresent();
  }
}
