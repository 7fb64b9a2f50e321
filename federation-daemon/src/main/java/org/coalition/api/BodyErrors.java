package org.coalition.api;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import jakarta.ws.rs.WebApplicationException;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What was wrong with a request, in the API's words rather than Java's: a field and the kind of
 * value it takes instead of a class name, the methods a path allows, the media type to send.
 */
final class BodyErrors {
  private BodyErrors() {}

  /** A body Jackson could not read: where and what, without Java types. */
  static String describe(JsonProcessingException j) {
    if (j instanceof UnrecognizedPropertyException u) {
      Collection<Object> known = u.getKnownPropertyIds() == null ? Set.of() : u.getKnownPropertyIds();
      return "unknown field '" + u.getPropertyName() + "'" + (known.isEmpty() ? "" : " (known: "
          + new TreeSet<>(known.stream().map(String::valueOf).toList()).stream().collect(Collectors.joining(", ")) + ")");
    }
    if (j instanceof MismatchedInputException m) {
      String field = path(m);
      return (field.isEmpty() ? "the body" : "field '" + field + "'") + " must be " + kind(m.getTargetType());
    }
    if (j instanceof JsonParseException p && p.getLocation() != null) {
      return "not valid JSON at line " + p.getLocation().getLineNr() + ", column " + p.getLocation().getColumnNr();
    }
    return "not valid JSON";
  }

  /** The error Jersey raised for a request it could not route or read. */
  static ApiError of(WebApplicationException w) {
    int status = w.getResponse().getStatus();
    return switch (status) {
      case 404 -> new ApiError(ApiError.Code.NOT_FOUND, "no such path; the API's paths are in docs/api.md");
      case 405 -> new ApiError(ApiError.Code.METHOD_NOT_ALLOWED, "this path does not take that method; it takes "
          + String.join(", ", new TreeSet<>(w.getResponse().getAllowedMethods())));
      case 406 -> new ApiError(ApiError.Code.NOT_ACCEPTABLE, "the API answers in JSON: accept application/json");
      case 415 -> new ApiError(ApiError.Code.UNSUPPORTED_MEDIA_TYPE, "send the body as JSON, with Content-Type: application/json");
      case 400 -> new ApiError(ApiError.Code.INVALID, "the request is malformed");
      default -> new ApiError(ApiError.codeOf(status), "HTTP " + status);
    };
  }

  private static String path(JsonMappingException m) {
    return m.getPath().stream().map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
        .collect(Collectors.joining(".")).replace(".[", "[");
  }

  private static String kind(Class<?> type) {
    if (type == null) {
      return "of another kind";
    }
    if (type == double.class || type == Double.class || type == float.class || type == Float.class) {
      return "a number";
    }
    if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
      return "a whole number";
    }
    if (type == boolean.class || type == Boolean.class) {
      return "true or false";
    }
    if (type == String.class) {
      return "a string";
    }
    if (Collection.class.isAssignableFrom(type) || type.isArray()) {
      return "a list";
    }
    return "an object";
  }
}
