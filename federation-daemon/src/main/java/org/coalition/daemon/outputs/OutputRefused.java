package org.coalition.daemon.outputs;

/**
 * An output reference or body this home does not follow: a protocol violation by the executor
 * (a reference outside its endpoint, a body too large or too slow, a server without its
 * certificate), not a lost output. The result is rejected and its job queued again.
 */
public final class OutputRefused extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public OutputRefused(String message) {
    super(message);
  }
}
