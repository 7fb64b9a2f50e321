package org.coalition.api;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.coalition.api.model.ErrorBody;

/**
 * An error the API answers with: an HTTP status and a JSON body {@code {"error": {"code": ...,
 * "message": ...}}} whose code a script can switch on.
 */
public final class ApiError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The error categories, each with its HTTP status. */
  public enum Code {
    INVALID(400), UNAUTHORIZED(401), FORBIDDEN(403), NOT_FOUND(404), CONFLICT(409), UNAVAILABLE(503), INTERNAL(500);

    final int status;

    Code(int status) {
      this.status = status;
    }
  }

  private final Code code;

  public ApiError(Code code, String message) {
    super(message);
    this.code = code;
  }

  public Code code() {
    return code;
  }



  Response response() {
    return Response.status(code.status).type(MediaType.APPLICATION_JSON_TYPE).entity(new ErrorBody(new ErrorBody.Detail(code.name(), getMessage()))).build();
  }
}
