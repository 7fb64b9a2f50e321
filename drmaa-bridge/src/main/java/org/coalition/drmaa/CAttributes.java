package org.coalition.drmaa;

import java.util.Calendar;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.ggf.drmaa.DrmaaException;
import org.ggf.drmaa.FileTransferMode;
import org.ggf.drmaa.InvalidAttributeValueException;
import org.ggf.drmaa.JobTemplate;
import org.ggf.drmaa.PartialTimestamp;
import org.ggf.drmaa.PartialTimestampFormat;

/**
 * A Java job template as the DRMAA C binding's attributes ({@code drmaa_remote_command},
 * {@code drmaa_v_argv}, ...), with the values in the C binding's forms: the submission state
 * {@code drmaa_hold} or {@code drmaa_active}, booleans {@code y}/{@code n} ({@code 1}/{@code 0}
 * for blocking mail), times in the DRMAA timestamp form, limits as {@code H:MM:SS}, transfers as
 * some of {@code i}, {@code o}, {@code e}. Only attributes set are there: an attribute left at its
 * default is left to the batch system's.
 *
 * @param scalars the scalar attributes by C name
 * @param vectors the vector attributes ({@code drmaa_v_*}) by C name
 */
public record CAttributes(Map<String, String> scalars, Map<String, List<String>> vectors) {
  public static final String REMOTE_COMMAND = "drmaa_remote_command";
  public static final String JS_STATE = "drmaa_js_state";
  public static final String WD = "drmaa_wd";
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
  public static final String WCT_HLIMIT = "drmaa_wct_hlimit";
  public static final String WCT_SLIMIT = "drmaa_wct_slimit";
  public static final String DURATION_HLIMIT = "drmaa_duration_hlimit";
  public static final String DURATION_SLIMIT = "drmaa_duration_slimit";
  public static final String V_ARGV = "drmaa_v_argv";
  public static final String V_ENV = "drmaa_v_env";
  public static final String V_EMAIL = "drmaa_v_email";
  /** The C names of the standard's optional attributes, by property name. */
  public static final Map<String, String> OPTIONAL = Map.of("transferFiles", TRANSFER_FILES, "deadlineTime", DEADLINE_TIME,
      "hardWallclockTimeLimit", WCT_HLIMIT, "softWallclockTimeLimit", WCT_SLIMIT, "hardRunDurationLimit", DURATION_HLIMIT,
      "softRunDurationLimit", DURATION_SLIMIT);

  /** Unmodifiable copies. */
  public CAttributes {
    scalars = Map.copyOf(scalars);
    vectors = Map.copyOf(vectors);
  }

  /**
   * The attributes of a template.
   *
   * @param t the template
   * @return its attributes
   * @throws DrmaaException when a value has no C form (a timestamp the form cannot hold)
   */
  public static CAttributes of(SessionTemplate t) throws DrmaaException {
    noNulls("args", t.getArgs());
    noNulls("email", t.getEmail());
    if (t.getJobEnvironment() != null) {
      noNulls("jobEnvironment's names", t.getJobEnvironment().keySet());
      noNulls("jobEnvironment's values", t.getJobEnvironment().values());
    }
    Map<String, String> s = new LinkedHashMap<>();
    Map<String, List<String>> v = new LinkedHashMap<>();
    put(s, REMOTE_COMMAND, t.getRemoteCommand());
    if (t.getArgs() != null) {
      v.put(V_ARGV, List.copyOf(t.getArgs()));
    }
    if (t.getJobSubmissionState() == JobTemplate.HOLD_STATE) {
      s.put(JS_STATE, "drmaa_hold");
    }
    if (t.getJobEnvironment() != null) {
      v.put(V_ENV, t.getJobEnvironment().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).sorted().toList());
    }
    put(s, WD, t.getWorkingDirectory());
    put(s, JOB_CATEGORY, t.getJobCategory());
    put(s, NATIVE_SPECIFICATION, t.getNativeSpecification());
    if (t.getEmail() != null) {
      v.put(V_EMAIL, t.getEmail().stream().sorted().toList());
    }
    if (t.getBlockEmail()) {
      s.put(BLOCK_EMAIL, "1");
    }
    put(s, START_TIME, timestamp("startTime", t.getStartTime()));
    put(s, JOB_NAME, t.getJobName());
    put(s, INPUT_PATH, t.getInputPath());
    put(s, OUTPUT_PATH, t.getOutputPath());
    put(s, ERROR_PATH, t.getErrorPath());
    if (t.getJoinFiles()) {
      s.put(JOIN_FILES, "y");
    }
    for (String name : t.getAttributeNames()) {
      switch (name) {
        case "transferFiles" -> put(s, TRANSFER_FILES, transfer(t.getTransferFiles()));
        case "deadlineTime" -> put(s, DEADLINE_TIME, timestamp("deadlineTime", t.getDeadlineTime()));
        case "hardWallclockTimeLimit" -> put(s, WCT_HLIMIT, limit(t.getHardWallclockTimeLimit()));
        case "softWallclockTimeLimit" -> put(s, WCT_SLIMIT, limit(t.getSoftWallclockTimeLimit()));
        case "hardRunDurationLimit" -> put(s, DURATION_HLIMIT, limit(t.getHardRunDurationLimit()));
        case "softRunDurationLimit" -> put(s, DURATION_SLIMIT, limit(t.getSoftRunDurationLimit()));
        default -> {
          // a mandatory attribute, written above
        }
      }
    }
    return new CAttributes(s, v);
  }

  /**
   * A limit in seconds as the C binding writes time amounts.
   *
   * @param seconds the limit; 0 for none
   * @return {@code H:MM:SS}, or null for none
   */
  private static String limit(long seconds) {
    return seconds == 0 ? null : String.format("%d:%02d:%02d", seconds / 3600, (seconds / 60) % 60, seconds % 60);
  }

  private static void noNulls(String name, Collection<String> values) throws InvalidAttributeValueException {
    if (values != null && values.stream().anyMatch(Objects::isNull)) {
      throw new InvalidAttributeValueException(name + " holds a null");
    }
  }

  private static String transfer(FileTransferMode mode) {
    return mode == null || mode.toString().isEmpty() ? null : mode.toString();
  }

  private static String timestamp(String name, PartialTimestamp time) throws InvalidAttributeValueException {
    if (time == null) {
      return null;
    }
    try {
      return new PartialTimestampFormat().format(modified(time) ? resolved(time) : time);
    } catch (IllegalArgumentException e) {
      throw new InvalidAttributeValueException(name + ": " + e.getMessage());
    }
  }

  /** Whether a field of {@code time} has a modifier, which the DRMAA form cannot carry. */
  private static boolean modified(PartialTimestamp time) {
    for (int field = 0; field < Calendar.FIELD_COUNT; field++) {
      if (time.getModifier(field) != 0) {
        return true;
      }
    }
    return false;
  }

  /** {@code time} resolved now, modifiers added: every field set, and the zone's offset then. */
  private static PartialTimestamp resolved(PartialTimestamp time) {
    PartialTimestamp at = new PartialTimestamp(time.getTimeZone());
    at.setTimeInMillis(time.getTimeInMillis());
    return at;
  }

  private static void put(Map<String, String> scalars, String name, String value) {
    if (value != null) {
      scalars.put(name, value);
    }
  }
}
