package org.coalition.handler;

import java.util.List;

/**
 * A batch system whose pilots run inside the daemon's own process (the local demo system): the
 * daemon hands it the code a pilot runs, and pilots carry {@link #pilotCommand()}, which is never
 * executed, instead of the site file's {@code pilots.command}.
 */
public interface InProcessPilots {
  /** Runs a pilot to its end; returns its exit code. */
  interface PilotLauncher {
    int run(PilotSpec spec) throws InterruptedException;
  }

  /** Sets the code every pilot started from now on runs. */
  void pilots(PilotLauncher launcher);

  /** The command pilots carry. */
  List<String> pilotCommand();
}
