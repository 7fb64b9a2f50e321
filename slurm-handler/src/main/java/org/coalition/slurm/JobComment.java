package org.coalition.slurm;

/**
 * A federated job's comment: the daemon's note of where the job is, then its user's own
 * {@code --comment}, as {@code coalition: NOTE | USER'S COMMENT}. The user's part is kept through
 * every note and given back whole when the job runs here after all. (A user's own comment that
 * starts with {@code coalition: } reads as a note; it is kept from its first {@code " | "} on.)
 */
final class JobComment {
  static final String PREFIX = "coalition: ";
  private static final String SEPARATOR = " | ";
  /** Slurm keeps comments of any length; a note stays short so that squeue's column reads it. */
  static final int MAX_NOTE = 200;

  private JobComment() {}

  /** The comment with {@code note} in place of any earlier one. */
  static String noted(String note, String comment) {
    String own = users(comment);
    String text = note.length() > MAX_NOTE ? note.substring(0, MAX_NOTE) : note;
    return PREFIX + text.replace(SEPARATOR, " / ") + (own.isEmpty() ? "" : SEPARATOR + own);
  }

  /** The user's own part of a comment. */
  static String users(String comment) {
    if (!comment.startsWith(PREFIX)) {
      return comment;
    }
    int at = comment.indexOf(SEPARATOR);
    return at < 0 ? "" : comment.substring(at + SEPARATOR.length());
  }
}
