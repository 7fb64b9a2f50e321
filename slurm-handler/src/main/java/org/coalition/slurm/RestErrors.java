package org.coalition.slurm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.util.ArrayList;
import java.util.List;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;

/**
 * Turns what slurmrestd answered (an HTTP status, a body with Slurm's {@code errors} list, or no
 * answer) into a {@link HandlerException} with a category and the server's own words.
 *
 * <p>slurmrestd reports most failures as HTTP 500 with Slurm's error number in the body, so the
 * number decides: 2017 (invalid job id) is NOT_FOUND; 1000-1999 (communication) and 5000-5999
 * (socket) are UNAVAILABLE, as is a 5xx without a number; access and authentication numbers are
 * AUTHENTICATION; other Slurm errors (2000 and up: invalid partition, bad request ...) are REJECTED.
 */
final class RestErrors {
  /** ESLURM_INVALID_JOB_ID. */
  static final int INVALID_JOB_ID = 2017;
  /** ESLURM_ALREADY_DONE: the job already ended. */
  static final int ALREADY_DONE = 2021;
  /** What 22.05's slurmrestd answers (HTTP 500) when slurmctld refuses the token it was given. */
  static final String TOKEN_REFUSED_2205 = "slurmctld config is unable to load";
  private static final ObjectMapper JSON = new ObjectMapper();

  private RestErrors() {}

  /** An error for a call that got no HTTP answer, or one it could not read. */
  static HandlerException noAnswer(String what, String url, Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof JsonProcessingException j) {
        return new HandlerException(Category.PROTOCOL, what + ": slurmrestd at " + url + " answered something that is not the JSON this"
            + " version expects: " + j.getOriginalMessage(), cause);
      }
      if (t instanceof InterruptedException) {
        Thread.currentThread().interrupt();
        return new HandlerException(Category.INTERNAL, what + ": interrupted", cause);
      }
      if (t instanceof ConnectException || t instanceof HttpTimeoutException) {
        return new HandlerException(Category.UNAVAILABLE, what + ": cannot reach slurmrestd at " + url + " (" + t
            + "); check that it runs and listens there", cause);
      }
    }
    if (cause instanceof IOException || cause.getCause() instanceof IOException) {
      return new HandlerException(Category.UNAVAILABLE, what + ": slurmrestd at " + url + " did not answer: " + cause.getMessage(), cause);
    }
    return new HandlerException(Category.INTERNAL, what + ": " + cause, cause);
  }

  /** An error for an HTTP answer with status {@code code} (not 2xx) and {@code body}. */
  static HandlerException answer(String what, String url, int code, String body, Throwable cause) {
    List<Integer> numbers = new ArrayList<>();
    String words = words(body, numbers);
    String message = what + ": slurmrestd at " + url + " answered HTTP " + code + ": " + words;
    if (words.contains(TOKEN_REFUSED_2205)) {
      message += " (22.05 says this when slurmctld refuses the token: check the user, the token's expiry and the cluster's JWT key)";
    }
    return new HandlerException(category(code, numbers, words), message, cause);
  }

  /** An error Slurm reported inside a 2xx answer (its {@code errors} list, or a kill's status). */
  /** An error entry's words: its description and its error, once when they say the same. */
  static String text(String description, String error) {
    return description == null || description.equals(error) ? error : description + ": " + error;
  }

  static HandlerException reported(String what, String url, int number, String text) {
    return new HandlerException(category(500, List.of(number), text), what + ": slurmrestd at " + url + ": " + text + " (Slurm error " + number + ")");
  }

  static Category category(int code, List<Integer> numbers, String words) {
    if (code == 401 || code == 403 || words.contains(TOKEN_REFUSED_2205)) {
      return Category.AUTHENTICATION;
    }
    for (int n : numbers) {
      if (n == INVALID_JOB_ID) {
        return Category.NOT_FOUND;
      }
      if (n == 1007 || n == 2002 || (n >= 6000 && n < 7000)) {
        return Category.AUTHENTICATION;
      }
      if ((n >= 1000 && n < 2000) || (n >= 5000 && n < 6000)) {
        return Category.UNAVAILABLE;
      }
      if (n >= 2000) {
        return Category.REJECTED;
      }
    }
    if (code == 404) {
      return Category.NOT_FOUND;
    }
    return code >= 500 ? Category.UNAVAILABLE : Category.REJECTED;
  }

  /** Slurm's error texts from a JSON body, or the body itself (a 401's is plain text), shortened. */
  static String words(String body, List<Integer> numbers) {
    if (body == null || body.isBlank()) {
      return "(no body)";
    }
    try {
      JsonNode errors = JSON.readTree(body).path("errors");
      List<String> texts = new ArrayList<>();
      for (JsonNode e : errors) {
        int n = e.path("error_number").asInt(e.path("error_code").asInt(0));
        if (n != 0) {
          numbers.add(n);
        }
        String text = e.path("error").asText("");
        String description = e.path("description").asText("");
        texts.add((description.isEmpty() || description.equals(text) ? text : description + ": " + text) + (n != 0 ? " (Slurm error " + n + ")" : ""));
      }
      if (!texts.isEmpty()) {
        return String.join("; ", texts);
      }
    } catch (JsonProcessingException e) {
      // not JSON: the body itself says it
    }
    String text = body.strip().replaceAll("\\s+", " ");
    return text.length() > 300 ? text.substring(0, 300) + "..." : text;
  }
}
