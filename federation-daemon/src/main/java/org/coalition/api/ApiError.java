package org.coalition.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
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
    INVALID(400), UNAUTHORIZED(401), FORBIDDEN(403), NOT_FOUND(404), METHOD_NOT_ALLOWED(405), NOT_ACCEPTABLE(406), CONFLICT(409),
    TOO_LARGE(413), UNSUPPORTED_MEDIA_TYPE(415), UNAVAILABLE(503), INTERNAL(500);

    final int status;

    Code(int status) {
      this.status = status;
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Code code;

  public ApiError(Code code, String message) {
    super(message);
    this.code = code;
  }

  public Code code() {
    return code;
  }


  /** The error's JSON body, for the places that write it without Jersey (the gate, the server's own errors). */
  String json() {
    try {
      return JSON.writeValueAsString(new ErrorBody(new ErrorBody.Detail(code.name(), getMessage())));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write an error body", e);
    }
  }

  /** The category of an HTTP status the server itself answered with. */
  static Code codeOf(int status) {
    for (Code c : Code.values()) {
      if (c.status == status) {
        return c;
      }
    }
    return status >= 500 ? Code.INTERNAL : Code.INVALID;
  }

  Response response() {
    return Response.status(code.status).type(MediaType.APPLICATION_JSON_TYPE).entity(new ErrorBody(new ErrorBody.Detail(code.name(), getMessage()))).build();
  }
}
