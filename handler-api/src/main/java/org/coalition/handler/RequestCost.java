package org.coalition.handler;

/** What one observation cost the batch system: requests made and response bytes read. */
public record RequestCost(int requests, long bytes) {
  public static final RequestCost NONE = new RequestCost(0, 0);

  public RequestCost plus(RequestCost other) {
    return new RequestCost(requests + other.requests, bytes + other.bytes);
  }
}
