package org.coalition.staging;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The files a job script declares it reads: {@code #COALITION --stage-in=PATH} lines in the
 * script's first comment block, as {@code #SBATCH} lines are read (the block ends at the first
 * line that is neither blank nor a comment). PATH is a file or folder relative to the job's
 * working directory; a folder travels whole.
 */
public final class StageDirectives {
  static final String PREFIX = "#COALITION";
  static final String STAGE_IN = "--stage-in=";
  /** Most inputs one job declares. */
  static final int MAX_INPUTS = 1000;
  private static final int MAX_PATH = 4096;

  private StageDirectives() {}

  /**
   * The inputs {@code script} declares, normalized ({@code a/./b} is {@code a/b}), in order.
   *
   * @throws StagingRefused for a directive other than {@code --stage-in=PATH}, or a PATH that is
   *     absolute, climbs out of the working directory, or holds control characters
   */
  public static List<String> inputs(String script) {
    List<String> inputs = new ArrayList<>();
    String[] lines = script.split("\n", -1);
    for (int n = 0; n < lines.length; n++) {
      String line = lines[n].strip();
      if (n == 0 && line.startsWith("#!")) {
        continue;
      }
      if (!line.isEmpty() && !line.startsWith("#")) {
        break;
      }
      if (!line.startsWith(PREFIX) || line.length() > PREFIX.length() && !Character.isWhitespace(line.charAt(PREFIX.length()))) {
        continue;
      }
      String directive = line.substring(PREFIX.length()).strip();
      if (!directive.startsWith(STAGE_IN)) {
        throw new StagingRefused("line " + (n + 1) + " of the script: '" + abbreviate(line) + "' is not a directive Coalition knows"
            + " (write '#COALITION --stage-in=PATH', PATH relative to the job's working directory)");
      }
      inputs.add(checked(directive.substring(STAGE_IN.length()), n + 1));
      if (inputs.size() > MAX_INPUTS) {
        throw new StagingRefused("the script declares more than " + MAX_INPUTS + " inputs; stage a folder that holds them instead");
      }
    }
    return inputs;
  }

  private static String checked(String raw, int line) {
    String where = "line " + line + " of the script: --stage-in=" + abbreviate(raw);
    if (raw.isEmpty() || raw.length() > MAX_PATH || raw.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
      throw new StagingRefused(where + " is not a path (empty, too long, or holding control characters)");
    }
    Path p = Path.of(raw).normalize();
    if (p.isAbsolute() || p.toString().isEmpty() || p.startsWith("..")) {
      throw new StagingRefused(where + " must name a file or folder inside the job's working directory, by a relative path without '..'");
    }
    return p.toString();
  }

  static String abbreviate(String s) {
    return s.length() <= 80 ? s : s.substring(0, 80) + "...";
  }
}
