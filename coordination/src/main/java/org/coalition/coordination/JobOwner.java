package org.coalition.coordination;

import java.util.Objects;

/**
 * Who a job belongs to at home, sent only to the members of an identity domain its home declares
 * (docs/jobs.md, "Identity domains"): the user's name, and the job's working directory when it
 * lies on a file system the domain shares. An executor runs the job as that user only if its own
 * site file lists the home and the user in a domain, and in that directory only if its file calls
 * the directory shared too: a home can ask, only the executor grants. {@link #NONE} for a job
 * whose home shares no identity with anyone (it runs as the home's pool account).
 *
 * @param user the user's account name at home ("" for none); never root
 * @param workDir the job's working directory at home, an absolute, normalised path ("" when it is
 *     on no shared file system)
 */
public record JobOwner(String user, String workDir) {
  /** A job whose home shares no identity with anyone. */
  public static final JobOwner NONE = new JobOwner("", "");
  /** Longest working directory accepted (Linux's PATH_MAX). */
  public static final int MAX_PATH = 4096;

  public JobOwner {
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(workDir, "workDir");
    if (!user.isEmpty() && !isAccount(user)) {
      throw new IllegalArgumentException("owner '" + abbreviate(user) + "' is not an unprivileged account name (lower case letters, digits,"
          + " '_', '-'; at most 32; never root)");
    }
    if (!workDir.isEmpty() && (user.isEmpty() || !isWorkDir(workDir))) {
      throw new IllegalArgumentException("working directory '" + abbreviate(workDir) + "' must be an absolute, normalised path of at most "
          + MAX_PATH + " characters (no '.', '..' or empty parts), given with its user");
    }
  }

  /** Whether the job's home named its user. */
  public boolean any() {
    return !user.isEmpty();
  }

  /** The rule of {@code Accounts.isUnprivileged}, which this module cannot see: {@code [a-z_][a-z0-9_-]{0,31}}, not root. */
  private static boolean isAccount(String name) {
    if (name.length() > 32 || name.equals("root")) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || c == '_' || (i > 0 && ((c >= '0' && c <= '9') || c == '-'));
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code path} is a working directory the record carries: absolute, normalised (no '.', '..' or empty parts), not '/', at most {@link #MAX_PATH}. */
  public static boolean isWorkDir(String path) {
    if (path.length() > MAX_PATH || !path.startsWith("/") || path.equals("/") || path.endsWith("/")) {
      return false;
    }
    for (String part : path.substring(1).split("/", -1)) {
      if (part.isEmpty() || part.equals(".") || part.equals("..")) {
        return false;
      }
    }
    return path.chars().noneMatch(c -> c < 0x20 || c == 0x7f);
  }

  private static String abbreviate(String s) {
    return s.length() <= 80 ? s : s.substring(0, 80) + "...";
  }
}
