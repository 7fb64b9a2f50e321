package org.coalition.gridengine;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.coalition.handler.HandlerSettings;

/**
 * A site file's {@code type: gridengine} entry: Grid Engine through its DRMAA 1.0 {@code library}
 * (or {@code $DRMAA_LIBRARY_PATH}), load through {@code qstat}; {@code queues} are the cluster
 * queues whose slots the site lends (empty for all), {@code parallelEnvironment} the PE of pilots
 * of more than one core, {@code memoryComplex} the complex pilots ask their memory by (empty: none);
 * the {@code results} folder makes the cluster's opted-in jobs federable, their scripts read from
 * qmaster's {@code spool}.
 */
public record GridEngineSettings(String name, Optional<Path> library, List<String> qstat, List<String> queues,
    String parallelEnvironment, Duration defaultTimeLimit, String memoryComplex, Optional<Path> results, Path spool) implements HandlerSettings {
  @Override
  public String type() {
    return GridEngineHandlerFactory.TYPE;
  }

  /** A Grid Engine cluster's users' jobs are published only when it has a results folder to replay them from. */
  @Override
  public boolean publishesHomeJobs() {
    return results.isPresent();
  }
}
