package org.coalition.api.model;

/** Every error the API answers: {@code {"error": {"code": "...", "message": "..."}}}. */
public record ErrorBody(Detail error) {
  /** A category (docs/api.md, "Errors") and a message that says what to do. */
  public record Detail(String code, String message) {}
}
