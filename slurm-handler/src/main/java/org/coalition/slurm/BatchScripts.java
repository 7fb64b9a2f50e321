package org.coalition.slurm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.Tool;

/**
 * Opted-in jobs' scripts. No REST version serves a job's script, so it is read with
 * {@code scontrol write batch_script ID -}; the statement job_submit.lua put at the start of the
 * second line is removed again, so the remote site runs the script as its user wrote it.
 */
final class BatchScripts {
  /** Largest script read (Slurm's own default limit, max_script_size, is 4 MB). */
  static final int MAX_SCRIPT = 4 << 20;
  private static final String QUOTED = "'(?:[^']|'\\\\'')*'";
  /** job_submit.lua's HOOK, whatever results folder and replay tool it names. */
  private static final Pattern HOOK = Pattern.compile("if \\[ -e " + QUOTED + "/\"\\$SLURM_JOB_ID\" \\]; then exec " + QUOTED + " "
      + QUOTED + "/\"\\$SLURM_JOB_ID\"; fi; ");

  private BatchScripts() {}

  /** Runs {@code scontrol write batch_script ID -} and returns what it printed. */
  static String read(List<String> scontrol, String jobId, Duration timeout) {
    Tool.Result r;
    try {
      r = new Tool(scontrol, Map.of(), timeout).run(List.of("write", "batch_script", jobId, "-"), null);
    } catch (HandlerException e) {
      if (e.getCause() instanceof IOException) {
        throw new HandlerException(Category.UNAVAILABLE, "cannot run " + scontrol.get(0) + " to read the script of job " + jobId + ": "
            + e.getCause().getMessage() + " (set the handler's 'scontrol' in the site file)", e);
      }
      throw e;
    }
    String script = r.requireSuccess("read the script of job " + jobId, Category.UNAVAILABLE);
    if (script.getBytes(StandardCharsets.UTF_8).length > MAX_SCRIPT) {
      throw new HandlerException(Category.REJECTED, "the script of job " + jobId + " is larger than " + MAX_SCRIPT + " bytes");
    }
    return script;
  }

  /** The script without job_submit.lua's statement; refuses a script that lacks it (not one the filter wrapped). */
  static String withoutHook(String script, String jobId) {
    int eol = script.indexOf('\n');
    var m = eol < 0 ? null : HOOK.matcher(script).region(eol + 1, script.length());
    if (m == null || !m.lookingAt()) {
      throw new HandlerException(Category.REJECTED, "the script of job " + jobId + " lacks the statement job_submit.lua puts on its"
          + " second line; it was not wrapped by Coalition's filter, so it cannot run elsewhere and be replayed here");
    }
    return script.substring(0, eol + 1) + script.substring(m.end());
  }
}
