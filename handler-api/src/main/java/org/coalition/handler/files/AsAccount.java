package org.coalition.handler.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a program with a local account's rights and no more: under root through {@code setpriv}
 * (the account's own uid, primary group and supplementary groups), otherwise only as the account
 * this process already runs as. Never as root: what a user's program reads or writes, it reads
 * or writes as that user, so a link the user planted leads nowhere the user could not go.
 */
public final class AsAccount {
  private static final String ME = System.getProperty("user.name");
  private static final boolean ROOT = "root".equals(ME);

  private AsAccount() {}

  /** Whether this process runs as root (and so switches to the account). */
  public static boolean root() {
    return ROOT;
  }

  /** The account this process runs as. */
  public static String me() {
    return ME;
  }

  /**
   * The command line that runs {@code command} as {@code account}.
   *
   * @throws IllegalArgumentException when {@code account} is root, or is not this process's own
   *     account and this process is not root (the message says how to fix it)
   * @throws IOException when the account is unknown here
   */
  public static List<String> command(String account, List<String> command) throws IOException {
    if (account.equals("root")) {
      throw new IllegalArgumentException("never as root: a user's files and jobs are handled with that user's rights, and this one is root");
    }
    if (!ROOT && !account.equals(ME)) {
      throw new IllegalArgumentException("cannot act as '" + account + "' from account '" + ME
          + "'; run the daemon as root (it switches to the account) or map the site to '" + ME + "'");
    }
    List<String> line = new ArrayList<>();
    if (ROOT) {
      line.addAll(List.of("setpriv", "--reuid=" + account, "--regid=" + primaryGroup(account), "--init-groups", "--"));
    }
    line.addAll(command);
    return line;
  }

  /** The account's primary group id. */
  private static String primaryGroup(String account) throws IOException {
    Process id = new ProcessBuilder("id", "-g", "--", account).redirectErrorStream(true).start();
    try (InputStream in = id.getInputStream()) {
      String out = new String(in.readNBytes(4096), StandardCharsets.US_ASCII).trim();
      if (id.waitFor() != 0 || !out.matches("[0-9]+")) {
        throw new IOException("no local account '" + account + "' (id -g: " + out + ")");
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while looking up " + account, e);
    }
  }
}
