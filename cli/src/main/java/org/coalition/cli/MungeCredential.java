package org.coalition.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A MUNGE credential of the user running the command ({@code munge -n}), with which a daemon on
 * another host of the cluster lets an ordinary user read their own jobs ({@code coalition job}),
 * as slurmctld lets them run {@code squeue}. None where MUNGE is not installed or not running.
 */
final class MungeCredential {
  private MungeCredential() {}

  /** A fresh credential (it decodes once, within 5 minutes), or empty. */
  static Optional<String> make() {
    try {
      Process p = new ProcessBuilder("munge", "-n").redirectError(ProcessBuilder.Redirect.DISCARD).start();
      p.getOutputStream().close();
      byte[] out = p.getInputStream().readNBytes(4096);
      if (!p.waitFor(5, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return Optional.empty();
      }
      String credential = new String(out, StandardCharsets.US_ASCII).strip();
      return p.exitValue() == 0 && credential.startsWith("MUNGE:") ? Optional.of(credential) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty(); // no munge here
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
