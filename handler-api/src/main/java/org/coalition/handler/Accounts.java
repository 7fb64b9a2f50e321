package org.coalition.handler;

import java.util.regex.Pattern;

/**
 * The rule for local account names, written once: what the site file, pilots, the broker and the
 * handlers accept as the account a foreign job runs as.
 */
public final class Accounts {
  /** A portable user name as {@code useradd} accepts it by default: lower case, at most 32 characters. */
  private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_-]{0,31}");

  private Accounts() {}

  /** Whether {@code name} is a well-formed local user name. */
  public static boolean isName(String name) {
    return name != null && NAME.matcher(name).matches();
  }

  /** Whether {@code name} is a well-formed local user name other than root's: foreign jobs never run as root. */
  public static boolean isUnprivileged(String name) {
    return isName(name) && !name.equals("root");
  }
}
