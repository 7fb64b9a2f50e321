package org.coalition.api;

/**
 * What the pilots' endpoints and their client agree on beyond the JSON records of {@code
 * api.model} ({@code Keep}, {@code Outcome}, the broker's {@code Assignment}): where the endpoints
 * are and the header a run's files travel with. The pilot's side ({@link HttpPilotClient}, on a
 * compute node) names these, never the server's classes.
 */
public final class PilotProtocol {
  /** Under the daemon's base URL: {@code v1/pilots/ID/work}, {@code heartbeat}, {@code finish}, {@code inputs}, {@code files}. */
  public static final String PATH = "v1/pilots";
  /** The header a pilot's upload of its run's files names their SHA-256 in. */
  public static final String SHA256_HEADER = "X-Coalition-Sha256";

  private PilotProtocol() {}
}
