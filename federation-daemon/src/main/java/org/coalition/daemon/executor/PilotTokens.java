package org.coalition.daemon.executor;

/** The daemon's side of a pilot's capability: the API asks it before it reads a pilot's request body. */
public interface PilotTokens {
  /** Returns if {@code token} is pilot {@code pilotId}'s; throws {@link org.coalition.daemon.pilot.PilotService.PilotRefused} otherwise. */
  void authenticate(String pilotId, String token);
}
