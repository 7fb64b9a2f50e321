package org.coalition.drmaa.jna;

import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;
import com.sun.jna.StringArray;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.coalition.drmaa.DrmaaException;
import org.coalition.drmaa.JobInfo;
import org.coalition.drmaa.JobState;
import org.coalition.drmaa.JobTemplate;
import org.coalition.drmaa.Session;

/**
 * {@link Session} over a native {@code libdrmaa.so} through JNA: no JNI to compile, any DRMAA 1.0
 * library (Grid Engine's, slurm-drmaa...). Every call passes its own error buffer, so threads do
 * not share one; every native object (job template, job id list, resource usage list) is freed
 * in a {@code finally}, whatever the call's outcome.
 */
public final class NativeSession implements Session {
  /** The environment variable DRMAA libraries' users conventionally set to the library's path. */
  public static final String LIBRARY_VARIABLE = "DRMAA_LIBRARY_PATH";

  private static final NativeLong ERR_LEN = new NativeLong(LibDrmaa.ERROR_BUFFER);
  private static final NativeLong VALUE_LEN = new NativeLong(LibDrmaa.VALUE_BUFFER);

  private final LibDrmaa lib;
  private final Path library;

  private NativeSession(LibDrmaa lib, Path library) {
    this.lib = lib;
    this.library = library;
  }

  /** The library at {@code library}, else at {@code $DRMAA_LIBRARY_PATH}; not yet initialised ({@link #init}). */
  public static NativeSession load(Optional<Path> library) {
    Path path = library.or(() -> Optional.ofNullable(System.getenv(LIBRARY_VARIABLE)).filter(s -> !s.isBlank()).map(Path::of))
        .orElseThrow(() -> new DrmaaLibraryException("no DRMAA library configured: give its path (e.g. "
            + "/usr/lib/gridengine-drmaa/lib/libdrmaa.so.1.0) or set " + LIBRARY_VARIABLE, null));
    if (!Files.isReadable(path)) {
      throw new DrmaaLibraryException("no DRMAA library at " + path + " (missing or unreadable); install it (Grid Engine: package "
          + "gridengine-drmaa1.0) or fix the path", null);
    }
    try {
      return new NativeSession(Native.load(path.toString(), LibDrmaa.class), path);
    } catch (UnsatisfiedLinkError e) {
      String why = String.valueOf(e.getMessage());
      if (why.contains("static TLS")) {
        throw new DrmaaLibraryException(path + " cannot be loaded into a running JVM (" + why.lines().findFirst().orElse("") + "): it"
            + " needs static TLS (Grid Engine's links jemalloc). Start the JVM with LD_PRELOAD=" + path, e);
      }
      throw new DrmaaLibraryException(path + " is not a loadable DRMAA library: " + why, e);
    }
  }

  /** The library this session calls. */
  public Path library() {
    return library;
  }

  @Override
  public void init(String contact) {
    byte[] err = errorBuffer();
    check("drmaa_init", lib.drmaa_init(contact == null || contact.isEmpty() ? null : contact, err, ERR_LEN), err);
  }

  @Override
  public void exit() {
    byte[] err = errorBuffer();
    check("drmaa_exit", lib.drmaa_exit(err, ERR_LEN), err);
  }

  @Override
  public String runJob(JobTemplate template) {
    Pointer jt = allocate(template);
    try {
      byte[] id = new byte[LibDrmaa.VALUE_BUFFER];
      byte[] err = errorBuffer();
      check("drmaa_run_job", lib.drmaa_run_job(id, VALUE_LEN, jt, err, ERR_LEN), err);
      return string(id);
    } finally {
      delete(jt);
    }
  }

  @Override
  public List<String> runBulkJobs(JobTemplate template, int start, int end, int incr) {
    if (start < 1 || end < start || incr < 1) {
      throw new DrmaaException.InvalidArgumentException("bulk jobs need 1 <= start <= end and incr >= 1, were " + start + ", " + end + ", " + incr);
    }
    Pointer jt = allocate(template);
    try {
      PointerByReference ids = new PointerByReference();
      byte[] err = errorBuffer();
      check("drmaa_run_bulk_jobs", lib.drmaa_run_bulk_jobs(ids, jt, start, end, incr, err, ERR_LEN), err);
      try {
        List<String> out = new ArrayList<>();
        byte[] id = new byte[LibDrmaa.VALUE_BUFFER];
        while (lib.drmaa_get_next_job_id(ids.getValue(), id, VALUE_LEN) == LibDrmaa.DRMAA_ERRNO_SUCCESS) {
          out.add(string(id));
        }
        return out;
      } finally {
        lib.drmaa_release_job_ids(ids.getValue());
      }
    } finally {
      delete(jt);
    }
  }

  @Override
  public void control(String jobId, Action action) {
    byte[] err = errorBuffer();
    check("drmaa_control(" + jobId + ", " + action + ")", lib.drmaa_control(jobId, action.code(), err, ERR_LEN), err);
  }

  @Override
  public void synchronize(List<String> jobIds, Duration timeout, boolean dispose) {
    byte[] err = errorBuffer();
    // StringArray ends the array with NULL, as drmaa_synchronize expects.
    check("drmaa_synchronize", lib.drmaa_synchronize(new StringArray(jobIds.toArray(String[]::new)), seconds(timeout), dispose ? 1 : 0, err,
        ERR_LEN), err);
  }

  @Override
  public JobInfo waitFor(String jobId, Duration timeout) {
    byte[] idOut = new byte[LibDrmaa.VALUE_BUFFER];
    IntByReference stat = new IntByReference();
    PointerByReference rusage = new PointerByReference();
    byte[] err = errorBuffer();
    int rc = lib.drmaa_wait(jobId, idOut, VALUE_LEN, stat, seconds(timeout), rusage, err, ERR_LEN);
    Map<String, String> usage = new LinkedHashMap<>();
    try {
      if (rc != LibDrmaa.DRMAA_ERRNO_SUCCESS && rc != 24) { // 24: DRMAA_ERRNO_NO_RUSAGE, the job ended all the same
        check("drmaa_wait(" + jobId + ")", rc, err);
      }
      if (rusage.getValue() != null) {
        byte[] value = new byte[LibDrmaa.VALUE_BUFFER];
        while (lib.drmaa_get_next_attr_value(rusage.getValue(), value, VALUE_LEN) == LibDrmaa.DRMAA_ERRNO_SUCCESS) {
          String pair = string(value);
          int eq = pair.indexOf('=');
          if (eq > 0) {
            usage.put(pair.substring(0, eq), pair.substring(eq + 1));
          }
        }
      }
    } finally {
      if (rusage.getValue() != null) {
        lib.drmaa_release_attr_values(rusage.getValue());
      }
    }
    int s = stat.getValue();
    boolean aborted = flag("drmaa_wifaborted", (v, e) -> lib.drmaa_wifaborted(v, s, e, ERR_LEN));
    boolean exited = !aborted && flag("drmaa_wifexited", (v, e) -> lib.drmaa_wifexited(v, s, e, ERR_LEN));
    int exitStatus = exited ? value("drmaa_wexitstatus", (v, e) -> lib.drmaa_wexitstatus(v, s, e, ERR_LEN)) : 0;
    boolean signaled = !aborted && !exited && flag("drmaa_wifsignaled", (v, e) -> lib.drmaa_wifsignaled(v, s, e, ERR_LEN));
    String signal = "";
    boolean core = false;
    if (signaled) {
      byte[] name = new byte[64];
      byte[] e = errorBuffer();
      check("drmaa_wtermsig", lib.drmaa_wtermsig(name, new NativeLong(name.length), s, e, ERR_LEN), e);
      signal = string(name);
      core = flag("drmaa_wcoredump", (v, e2) -> lib.drmaa_wcoredump(v, s, e2, ERR_LEN));
    }
    return new JobInfo(string(idOut), exited, exitStatus, signaled, signal, core, aborted, usage);
  }

  @Override
  public JobState getJobProgramStatus(String jobId) {
    return JobState.of(value("drmaa_job_ps(" + jobId + ")", (v, e) -> lib.drmaa_job_ps(jobId, v, e, ERR_LEN)));
  }

  @Override
  public String getContact() {
    return text("drmaa_get_contact", (buf, e) -> lib.drmaa_get_contact(buf, VALUE_LEN, e, ERR_LEN));
  }

  @Override
  public String getVersion() {
    IntByReference major = new IntByReference();
    IntByReference minor = new IntByReference();
    byte[] err = errorBuffer();
    check("drmaa_version", lib.drmaa_version(major, minor, err, ERR_LEN), err);
    return major.getValue() + "." + minor.getValue();
  }

  @Override
  public String getDrmSystem() {
    return text("drmaa_get_DRM_system", (buf, e) -> lib.drmaa_get_DRM_system(buf, VALUE_LEN, e, ERR_LEN));
  }

  @Override
  public String getDrmaaImplementation() {
    return text("drmaa_get_DRMAA_implementation", (buf, e) -> lib.drmaa_get_DRMAA_implementation(buf, VALUE_LEN, e, ERR_LEN));
  }

  // --- native templates ------------------------------------------------------------------------

  /** A native template filled from {@code template}; the caller deletes it. Freed here if filling fails. */
  private Pointer allocate(JobTemplate template) {
    PointerByReference ref = new PointerByReference();
    byte[] err = errorBuffer();
    check("drmaa_allocate_job_template", lib.drmaa_allocate_job_template(ref, err, ERR_LEN), err);
    Pointer jt = ref.getValue();
    try {
      for (Map.Entry<String, String> a : template.scalars().entrySet()) {
        byte[] e = errorBuffer();
        check("drmaa_set_attribute(" + a.getKey() + ")", lib.drmaa_set_attribute(jt, a.getKey(), a.getValue(), e, ERR_LEN), e);
      }
      for (Map.Entry<String, List<String>> a : template.vectors().entrySet()) {
        byte[] e = errorBuffer();
        check("drmaa_set_vector_attribute(" + a.getKey() + ")",
            lib.drmaa_set_vector_attribute(jt, a.getKey(), new StringArray(a.getValue().toArray(String[]::new)), e, ERR_LEN), e);
      }
      return jt;
    } catch (RuntimeException e) {
      delete(jt);
      throw e;
    }
  }

  private void delete(Pointer jt) {
    byte[] err = errorBuffer();
    check("drmaa_delete_job_template", lib.drmaa_delete_job_template(jt, err, ERR_LEN), err);
  }

  // --- calls and their errors ------------------------------------------------------------------

  private interface IntCall {
    int call(IntByReference value, byte[] err);
  }

  private interface TextCall {
    int call(byte[] value, byte[] err);
  }

  private int value(String what, IntCall call) {
    IntByReference v = new IntByReference();
    byte[] err = errorBuffer();
    check(what, call.call(v, err), err);
    return v.getValue();
  }

  private boolean flag(String what, IntCall call) {
    return value(what, call) != 0;
  }

  private static String text(String what, TextCall call) {
    byte[] value = new byte[LibDrmaa.VALUE_BUFFER];
    byte[] err = errorBuffer();
    check(what, call.call(value, err), err);
    return string(value);
  }

  private static void check(String what, int rc, byte[] err) {
    if (rc != LibDrmaa.DRMAA_ERRNO_SUCCESS) {
      String diagnosis = string(err);
      throw DrmaaException.of(rc, what + ": " + (diagnosis.isEmpty() ? "DRMAA error " + rc : diagnosis));
    }
  }

  private static NativeLong seconds(Duration timeout) {
    return new NativeLong(timeout.isNegative() ? -1 : timeout.toSeconds());
  }

  private static byte[] errorBuffer() {
    return new byte[LibDrmaa.ERROR_BUFFER];
  }

  private static String string(byte[] buffer) {
    int n = 0;
    while (n < buffer.length && buffer[n] != 0) {
      n++;
    }
    return new String(buffer, 0, n, StandardCharsets.UTF_8);
  }
}
