package org.coalition.drmaa;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What to run: DRMAA 1.0's job template as a plain Java value. A {@link Session} turns it into the
 * back end's own template when a job is submitted (for a native library: allocated, filled, used
 * and freed within the one call), so a template holds no native memory and may be shared.
 *
 * <p>Scalar attributes by their DRMAA names ({@code drmaa_remote_command}, {@code drmaa_wd}...);
 * vector ones ({@code drmaa_v_argv}, {@code drmaa_v_env}, {@code drmaa_v_email}) as lists. The
 * typed setters cover the attributes every DRMAA 1.0 library must support.
 */
public final class JobTemplate {
  public static final String REMOTE_COMMAND = "drmaa_remote_command";
  public static final String JOB_SUBMISSION_STATE = "drmaa_js_state";
  public static final String WORKING_DIRECTORY = "drmaa_wd";
  public static final String JOB_CATEGORY = "drmaa_job_category";
  public static final String NATIVE_SPECIFICATION = "drmaa_native_specification";
  public static final String BLOCK_EMAIL = "drmaa_block_email";
  public static final String START_TIME = "drmaa_start_time";
  public static final String JOB_NAME = "drmaa_job_name";
  public static final String INPUT_PATH = "drmaa_input_path";
  public static final String OUTPUT_PATH = "drmaa_output_path";
  public static final String ERROR_PATH = "drmaa_error_path";
  public static final String JOIN_FILES = "drmaa_join_files";
  public static final String TRANSFER_FILES = "drmaa_transfer_files";
  public static final String DEADLINE_TIME = "drmaa_deadline_time";
  public static final String HARD_WALLCLOCK_LIMIT = "drmaa_wct_hlimit";
  public static final String SOFT_WALLCLOCK_LIMIT = "drmaa_wct_slimit";
  public static final String HARD_RUN_DURATION_LIMIT = "drmaa_duration_hlimit";
  public static final String SOFT_RUN_DURATION_LIMIT = "drmaa_duration_slimit";
  public static final String ARGS = "drmaa_v_argv";
  public static final String ENVIRONMENT = "drmaa_v_env";
  public static final String EMAIL = "drmaa_v_email";
  /** Placeholders DRMAA expands in paths: the bulk job's index, the home and the working directory. */
  public static final String PARAMETRIC_INDEX = "$drmaa_incr_ph$";
  public static final String HOME_DIRECTORY = "$drmaa_hd_ph$";
  public static final String WORKING_DIRECTORY_PLACEHOLDER = "$drmaa_wd_ph$";

  /** Submission states for {@link #setJobSubmissionState}. */
  public enum SubmissionState { ACTIVE, HOLD }

  private static final Set<String> VECTORS = Set.of(ARGS, ENVIRONMENT, EMAIL);

  private final Map<String, String> scalars = new LinkedHashMap<>();
  private final Map<String, List<String>> vectors = new LinkedHashMap<>();

  public synchronized JobTemplate set(String name, String value) {
    if (VECTORS.contains(name)) {
      throw new DrmaaException.InvalidArgumentException(name + " is a vector attribute; use setVector");
    }
    scalars.put(requireName(name), Objects.requireNonNull(value, name));
    return this;
  }

  public synchronized JobTemplate setVector(String name, List<String> values) {
    if (!VECTORS.contains(name) && !name.startsWith("drmaa_v_")) {
      throw new DrmaaException.InvalidArgumentException(name + " is not a vector attribute (those are named drmaa_v_*)");
    }
    vectors.put(name, List.copyOf(values));
    return this;
  }

  public JobTemplate setRemoteCommand(String command) {
    return set(REMOTE_COMMAND, command);
  }

  public JobTemplate setArgs(List<String> args) {
    return setVector(ARGS, args);
  }

  /** The job's environment, as NAME=VALUE pairs. */
  public JobTemplate setJobEnvironment(Map<String, String> env) {
    return setVector(ENVIRONMENT, env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
  }

  public JobTemplate setWorkingDirectory(String dir) {
    return set(WORKING_DIRECTORY, dir);
  }

  public JobTemplate setJobName(String name) {
    return set(JOB_NAME, name);
  }

  /** A path as DRMAA wants it: {@code [hostname]:path}; a bare path gets the leading colon. */
  public JobTemplate setOutputPath(String path) {
    return set(OUTPUT_PATH, colon(path));
  }

  public JobTemplate setErrorPath(String path) {
    return set(ERROR_PATH, colon(path));
  }

  public JobTemplate setInputPath(String path) {
    return set(INPUT_PATH, colon(path));
  }

  public JobTemplate setJoinFiles(boolean join) {
    return set(JOIN_FILES, join ? "y" : "n");
  }

  public JobTemplate setNativeSpecification(String spec) {
    return set(NATIVE_SPECIFICATION, spec);
  }

  public JobTemplate setJobSubmissionState(SubmissionState state) {
    return set(JOB_SUBMISSION_STATE, state == SubmissionState.HOLD ? "drmaa_hold" : "drmaa_active");
  }

  /** Hard wall-clock limit, as DRMAA's {@code [[h:]m:]s}. */
  public JobTemplate setHardWallclockTimeLimit(long seconds) {
    return set(HARD_WALLCLOCK_LIMIT, String.format("%d:%02d:%02d", seconds / 3600, (seconds / 60) % 60, seconds % 60));
  }

  public synchronized Map<String, String> scalars() {
    return Map.copyOf(scalars);
  }

  public synchronized Map<String, List<String>> vectors() {
    return Map.copyOf(vectors);
  }

  private static String colon(String path) {
    return path.contains(":") ? path : ":" + path;
  }

  private static String requireName(String name) {
    if (name == null || !name.matches("drmaa_[a-z_]+")) {
      throw new DrmaaException.InvalidArgumentException("'" + name + "' is not a DRMAA attribute name (drmaa_*)");
    }
    return name;
  }
}
