package org.coalition.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.io.CharConversionException;
import org.coalition.coordination.CoordinationException;
import org.coalition.daemon.outputs.OutputRefused;
import org.coalition.daemon.outputs.RunOutputs;
import org.coalition.daemon.pilot.PilotService;
import org.coalition.handler.HandlerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Every failure becomes a categorised JSON error; only a bug (an unexpected exception) is logged with its stack. */
@Provider
final class ErrorMapper implements ExceptionMapper<Throwable> {
  private static final Logger LOG = LoggerFactory.getLogger(ErrorMapper.class);

  @Override
  public Response toResponse(Throwable e) {
    return map(e).response();
  }

  static ApiError map(Throwable e) {
    if (e instanceof ApiError a) {
      return a;
    }
    if (e instanceof PilotService.PilotRefused r) {
      return new ApiError(ApiError.Code.FORBIDDEN, r.getMessage());
    }
    if (e instanceof PilotService.Unavailable u) {
      return new ApiError(ApiError.Code.UNAVAILABLE, u.getMessage() + "; retry later");
    }
    if (e instanceof OutputRefused r) {
      // a job's inputs came back other than its record says: the home's fault, and asking again changes nothing
      return new ApiError(ApiError.Code.CONFLICT, r.getMessage());
    }
    if (e instanceof RunOutputs.SpoolFull full) {
      return new ApiError(ApiError.Code.UNAVAILABLE, full.getCause().getMessage() + "; retry later");
    }
    if (e instanceof JsonProcessingException j) {
      return new ApiError(ApiError.Code.INVALID, "the request body is not the JSON expected: " + BodyErrors.describe(j));
    }
    if (e instanceof CharConversionException c) {
      // Jackson guesses a body's encoding from its first bytes: NULs there read as UTF-32 and fail here, outside its parser
      return new ApiError(ApiError.Code.INVALID, "the request body is not UTF-8 JSON: " + c.getMessage());
    }
    if (e instanceof IllegalArgumentException) {
      return new ApiError(ApiError.Code.INVALID, e.getMessage());
    }
    if (e instanceof CoordinationException c) {
      return switch (c.kind()) {
        case UNAVAILABLE -> new ApiError(ApiError.Code.UNAVAILABLE, "ZooKeeper: " + c.getMessage());
        case STALE -> new ApiError(ApiError.Code.CONFLICT, c.getMessage());
        case FORBIDDEN -> new ApiError(ApiError.Code.FORBIDDEN, c.getMessage());
        default -> new ApiError(ApiError.Code.INVALID, c.getMessage());
      };
    }
    if (e instanceof HandlerException h) {
      return new ApiError(h.category() == HandlerException.Category.UNAVAILABLE ? ApiError.Code.UNAVAILABLE : ApiError.Code.INTERNAL,
          "batch system: " + h.getMessage());
    }
    if (e instanceof WebApplicationException w) {
      return BodyErrors.of(w);
    }
    LOG.error("API request failed", e);
    return new ApiError(ApiError.Code.INTERNAL, "internal error: " + e);
  }
}
