package org.coalition.api;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.Base64;
import java.util.Optional;
import org.coalition.api.model.Keep;
import org.coalition.api.model.Outcome;
import org.coalition.daemon.Broker;
import org.coalition.daemon.pilot.PilotService;

/**
 * The pilots' endpoints ({@code POST v1/pilots/ID/...}, each with that pilot's token, checked by
 * {@link ApiGate} and again by the broker): work, heartbeat, the run's end, its inputs and its
 * files. {@link HttpPilotClient} is their other side, and both speak {@link PilotProtocol}.
 */
@Path(PilotProtocol.PATH)
@Produces(MediaType.APPLICATION_JSON)
public final class PilotResource {
  private final Broker broker;

  PilotResource(Broker broker) {
    this.broker = broker;
  }

  @POST
  @Path("{id}/work")
  public Response work(@PathParam("id") String pilot, @HeaderParam("Authorization") String authorization) {
    Optional<PilotService.Assignment> a = broker.work(pilot, ApiGate.bearer(authorization));
    return a.isPresent() ? Response.ok(a.get()).build() : Response.noContent().build();
  }

  @POST
  @Path("{id}/heartbeat")
  public Keep heartbeat(@PathParam("id") String pilot, @HeaderParam("Authorization") String authorization) {
    return new Keep(broker.heartbeat(pilot, ApiGate.bearer(authorization)));
  }

  @POST
  @Path("{id}/finish")
  @Consumes(MediaType.APPLICATION_JSON)
  public Response finish(@PathParam("id") String pilot, @HeaderParam("Authorization") String authorization, Outcome outcome) {
    if (outcome == null) {
      throw new ApiError(ApiError.Code.INVALID, "send the run's outcome: start, end, exitCode (or signal), stdout and stderr (base64)");
    }
    byte[] out;
    byte[] err;
    try {
      out = outcome.stdout() == null ? new byte[0] : Base64.getDecoder().decode(outcome.stdout());
      err = outcome.stderr() == null ? new byte[0] : Base64.getDecoder().decode(outcome.stderr());
    } catch (IllegalArgumentException e) {
      throw new ApiError(ApiError.Code.INVALID, "stdout and stderr must be base64: " + e.getMessage());
    }
    PilotService.RunOutcome run;
    try {
      run = new PilotService.RunOutcome(outcome.start(), outcome.end(), outcome.exitCode(), outcome.signal(), outcome.timedOut(), out, err,
          outcome.outOfMemory());
    } catch (IllegalArgumentException e) {
      throw new ApiError(ApiError.Code.INVALID, "the run's outcome: " + e.getMessage());
    }
    broker.finish(pilot, ApiGate.bearer(authorization), run);
    return Response.noContent().build();
  }

  /** The inputs of the pilot's job: fetched from its home and checked first ({@link PilotService#inputs}). */
  @POST
  @Path("{id}/inputs")
  @Produces("application/x-tar")
  public Response inputs(@PathParam("id") String pilot, @HeaderParam("Authorization") String authorization) throws IOException {
    // fully qualified: clashes with jakarta.ws.rs.Path, the resource's annotation
    java.nio.file.Path file = broker.incomingFile("inputs-");
    broker.inputs(pilot, ApiGate.bearer(authorization), file);
    StreamingOutput body = out -> {
      try {
        Files.copy(file, out);
      } finally {
        Files.deleteIfExists(file);
      }
    };
    return Response.ok(body, "application/x-tar").build();
  }

  /** The files the pilot's run wrote, a tar with its SHA-256 in {@value PilotProtocol#SHA256_HEADER} ({@link PilotService#files}). */
  @POST
  @Path("{id}/files")
  @Consumes("application/x-tar")
  public Response files(@PathParam("id") String pilot, @HeaderParam("Authorization") String authorization,
      @HeaderParam(PilotProtocol.SHA256_HEADER) String sha256, @HeaderParam("Content-Length") long length, InputStream body) {
    if (sha256 == null || !sha256.matches("[0-9a-f]{64}")) {
      throw new ApiError(ApiError.Code.INVALID, "name the files' SHA-256 (64 lower-case hex digits) in " + PilotProtocol.SHA256_HEADER);
    }
    broker.receiveFiles(pilot, ApiGate.bearer(authorization), body, length, sha256);
    return Response.noContent().build();
  }
}
