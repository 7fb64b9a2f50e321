package org.coalition.api;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.coalition.coordination.JobSpec;
import org.coalition.daemon.Broker;
import org.coalition.daemon.outputs.RunOutputs;

/**
 * What peer daemons fetch (their certificate checked by {@link ApiGate} where the daemons speak
 * mutual TLS): a claimed job's inputs, for the site holding its claim, and a foreign run's output,
 * for its home, named by a capability.
 */
@Path("/")
public final class PeerResource {
  private final Broker broker;

  PeerResource(Broker broker) {
    this.broker = broker;
  }

  /** A job's inputs, for the site that holds its claim (the gate checked its certificate). */
  @GET
  @Path("v1/inputs/{job}")
  @Produces("application/x-tar")
  public Response jobInputs(@PathParam("job") String job) {
    JobSpec.requireId("job id", job);
    // fully qualified: clashes with jakarta.ws.rs.Path, the resource's annotation
    java.nio.file.Path file = broker.claimedInputs(job).orElseThrow(() -> new ApiError(ApiError.Code.NOT_FOUND, "job " + job
        + " of " + broker.settings().site() + " has no inputs, or is not claimed"));
    return Response.ok(file.toFile(), "application/x-tar").build();
  }

  /** A foreign run's output, for its home site: the name is the capability (128 random bits). */
  @GET
  @Path("v1/outputs/{name}")
  @Produces(MediaType.APPLICATION_OCTET_STREAM)
  public Response output(@PathParam("name") String name) {
    // fully qualified: clashes with jakarta.ws.rs.Path, the resource's annotation
    java.nio.file.Path file = broker.outputs().served(name)
        .orElseThrow(() -> new ApiError(ApiError.Code.NOT_FOUND, "no output " + name + " here (outputs are kept "
            + RunOutputs.RETENTION.toHours() + " h)"));
    return Response.ok(file.toFile(), MediaType.APPLICATION_OCTET_STREAM).build();
  }
}
