package org.coalition.local;

import org.coalition.handler.HandlerSettings;

/** A site file's {@code type: local} entry: the demo's batch system of {@code cores} cores, on the daemon's machine. */
public record LocalSettings(String name, int cores) implements HandlerSettings {
  @Override
  public String type() {
    return LocalHandlerFactory.TYPE;
  }

  @Override
  public boolean runsJobsOnThisHost() {
    return true;
  }

  /** Every job of the local site's users is opted in. */
  @Override
  public boolean publishesHomeJobs() {
    return true;
  }
}
