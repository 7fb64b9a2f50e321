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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.coalition.drmaa.CAttributes;
import org.coalition.drmaa.ControlCall;
import org.coalition.drmaa.ErrorCodes;
import org.coalition.drmaa.JobEnd;
import org.coalition.drmaa.JobIds;
import org.coalition.drmaa.SessionTemplate;
import org.coalition.drmaa.SessionTemplates;
import org.ggf.drmaa.DrmaaException;
import org.ggf.drmaa.InternalException;
import org.ggf.drmaa.JobInfo;
import org.ggf.drmaa.JobTemplate;
import org.ggf.drmaa.NoActiveSessionException;
import org.ggf.drmaa.Session;
import org.ggf.drmaa.Version;

/**
 * The standard {@link Session} over a native {@code libdrmaa.so} through JNA: no JNI to compile,
 * any DRMAA 1.0 library (Grid Engine's, slurm-drmaa...). Every call passes its own error buffer, so
 * threads do not share one; every native object (job template, job id list, resource usage list)
 * is freed in a {@code finally}, whatever the call's outcome. A job template is a Java value
 * ({@link SessionTemplate}) made native only inside {@code runJob} and {@code runBulkJobs}; its
 * optional attributes are those the library lists. Errors are the standard's exceptions, one per
 * C error code ({@link ErrorCodes}), their message the call and the library's own diagnosis.
 */
public final class NativeSession implements Session {
  /** The environment variable DRMAA libraries' users conventionally set to the library's path. */
  public static final String LIBRARY_VARIABLE = "DRMAA_LIBRARY_PATH";

  private static final int BUFFER = 1024;
  private static final NativeLong BUFFER_LEN = new NativeLong(BUFFER);

  private final LibDrmaa lib;
  private final Path library;
  private volatile boolean active;
  private volatile Set<String> optional = Set.of();
  private final SessionTemplates templates = new SessionTemplates(this);

  private NativeSession(LibDrmaa lib, Path library) {
    this.lib = lib;
    this.library = library;
  }

  /**
   * The library at {@code library}, else at {@code $DRMAA_LIBRARY_PATH}; not yet initialised.
   *
   * @param library the library's path; empty for the environment variable's
   * @return the session
   * @throws DrmaaLibraryException when no library is configured or it cannot be loaded, saying how to fix it
   */
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

  /**
   * The library this session calls.
   *
   * @return its path
   */
  public Path library() {
    return library;
  }

  @Override
  public void init(String contact) throws DrmaaException {
    byte[] err = buffer();
    check("drmaa_init", lib.drmaa_init(contact == null || contact.isEmpty() ? null : contact, err, BUFFER_LEN), err);
    active = true;
    optional = optionalAttributes();
  }

  @Override
  public void exit() throws DrmaaException {
    byte[] err = buffer();
    check("drmaa_exit", lib.drmaa_exit(err, BUFFER_LEN), err);
    active = false;
    templates.deleteAll();
  }

  @Override
  public JobTemplate createJobTemplate() throws DrmaaException {
    if (!active) {
      throw new NoActiveSessionException("drmaa_allocate_job_template: no active session (call init first)");
    }
    return templates.create(optional);
  }

  @Override
  public void deleteJobTemplate(JobTemplate jt) throws DrmaaException {
    templates.delete(jt);
  }

  @Override
  public String runJob(JobTemplate template) throws DrmaaException {
    Pointer jt = allocate(templates.check(template, "drmaa_run_job"));
    try {
      byte[] id = buffer();
      byte[] err = buffer();
      check("drmaa_run_job", lib.drmaa_run_job(id, BUFFER_LEN, jt, err, BUFFER_LEN), err);
      return string(id);
    } finally {
      release(jt);
    }
  }

  @Override
  public List<String> runBulkJobs(JobTemplate template, int start, int end, int incr) throws DrmaaException {
    if (start < 1 || end < start || incr < 1) {
      throw new IllegalArgumentException("drmaa_run_bulk_jobs: need 1 <= start <= end and incr >= 1, were " + start + ", " + end + ", " + incr);
    }
    Pointer jt = allocate(templates.check(template, "drmaa_run_bulk_jobs"));
    try {
      PointerByReference ids = new PointerByReference();
      byte[] err = buffer();
      check("drmaa_run_bulk_jobs", lib.drmaa_run_bulk_jobs(ids, jt, start, end, incr, err, BUFFER_LEN), err);
      try {
        List<String> out = new ArrayList<>();
        byte[] id = buffer();
        while (lib.drmaa_get_next_job_id(ids.getValue(), id, BUFFER_LEN) == ErrorCodes.SUCCESS) {
          out.add(string(id));
        }
        return out;
      } finally {
        lib.drmaa_release_job_ids(ids.getValue());
      }
    } finally {
      release(jt);
    }
  }

  @Override
  public void control(String jobId, int action) throws DrmaaException {
    String call = ControlCall.describe(jobId, action);
    JobIds.notNull(call, jobId); // the library dereferences it: a null would crash the JVM
    byte[] err = buffer();
    check(call, lib.drmaa_control(jobId, action, err, BUFFER_LEN), err);
  }

  @Override
  public void synchronize(List<String> jobIds, long timeout, boolean dispose) throws DrmaaException {
    JobIds.notNull("drmaa_synchronize", jobIds);
    byte[] err = buffer();
    // StringArray ends the array with NULL, as drmaa_synchronize expects.
    check("drmaa_synchronize", lib.drmaa_synchronize(new StringArray(jobIds.toArray(String[]::new)), new NativeLong(timeout), dispose ? 1 : 0,
        err, BUFFER_LEN), err);
  }

  @Override
  public JobInfo wait(String jobId, long timeout) throws DrmaaException {
    JobIds.notNull("drmaa_wait", jobId);
    byte[] idOut = buffer();
    IntByReference stat = new IntByReference();
    PointerByReference rusage = new PointerByReference();
    byte[] err = buffer();
    int rc = lib.drmaa_wait(jobId, idOut, BUFFER_LEN, stat, new NativeLong(timeout), rusage, err, BUFFER_LEN);
    Map<String, String> usage = new LinkedHashMap<>();
    try {
      if (rc != ErrorCodes.SUCCESS && rc != ErrorCodes.NO_RUSAGE) { // no usage: the job ended all the same
        check("drmaa_wait(" + jobId + ")", rc, err);
      }
      if (rusage.getValue() != null) {
        byte[] value = buffer();
        while (lib.drmaa_get_next_attr_value(rusage.getValue(), value, BUFFER_LEN) == ErrorCodes.SUCCESS) {
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
    boolean aborted = flag("drmaa_wifaborted", (v, e) -> lib.drmaa_wifaborted(v, s, e, BUFFER_LEN));
    boolean exited = !aborted && flag("drmaa_wifexited", (v, e) -> lib.drmaa_wifexited(v, s, e, BUFFER_LEN));
    int exitStatus = exited ? value("drmaa_wexitstatus", (v, e) -> lib.drmaa_wexitstatus(v, s, e, BUFFER_LEN)) : 0;
    boolean signaled = !aborted && !exited && flag("drmaa_wifsignaled", (v, e) -> lib.drmaa_wifsignaled(v, s, e, BUFFER_LEN));
    String signal = "";
    boolean core = false;
    if (signaled) {
      byte[] name = new byte[64];
      byte[] e = buffer();
      check("drmaa_wtermsig", lib.drmaa_wtermsig(name, new NativeLong(name.length), s, e, BUFFER_LEN), e);
      signal = string(name);
      core = flag("drmaa_wcoredump", (v, e2) -> lib.drmaa_wcoredump(v, s, e2, BUFFER_LEN));
    }
    return new JobEnd(string(idOut), exited, exitStatus, signaled, signal, core, aborted, usage);
  }

  @Override
  public int getJobProgramStatus(String jobId) throws DrmaaException {
    JobIds.notNull("drmaa_job_ps", jobId);
    // The C binding's DRMAA_PS_* values are the Java binding's state constants.
    return value("drmaa_job_ps(" + jobId + ")", (v, e) -> lib.drmaa_job_ps(jobId, v, e, BUFFER_LEN));
  }

  @Override
  public String getContact() {
    return text("drmaa_get_contact", (buf, e) -> lib.drmaa_get_contact(buf, BUFFER_LEN, e, BUFFER_LEN));
  }

  @Override
  public Version getVersion() {
    IntByReference major = new IntByReference();
    IntByReference minor = new IntByReference();
    byte[] err = buffer();
    unchecked("drmaa_version", lib.drmaa_version(major, minor, err, BUFFER_LEN), err);
    return new Version(major.getValue(), minor.getValue());
  }

  @Override
  public String getDrmSystem() {
    return text("drmaa_get_DRM_system", (buf, e) -> lib.drmaa_get_DRM_system(buf, BUFFER_LEN, e, BUFFER_LEN));
  }

  @Override
  public String getDrmaaImplementation() {
    return text("drmaa_get_DRMAA_implementation", (buf, e) -> lib.drmaa_get_DRMAA_implementation(buf, BUFFER_LEN, e, BUFFER_LEN));
  }

  // --- native templates ------------------------------------------------------------------------

  /** The optional attributes, by property name, whose C names the library lists. */
  private Set<String> optionalAttributes() throws DrmaaException {
    PointerByReference names = new PointerByReference();
    byte[] err = buffer();
    check("drmaa_get_attribute_names", lib.drmaa_get_attribute_names(names, err, BUFFER_LEN), err);
    Set<String> listed = new HashSet<>();
    try {
      byte[] name = buffer();
      while (lib.drmaa_get_next_attr_name(names.getValue(), name, BUFFER_LEN) == ErrorCodes.SUCCESS) {
        listed.add(string(name));
      }
    } finally {
      lib.drmaa_release_attr_names(names.getValue());
    }
    Set<String> supported = new HashSet<>();
    CAttributes.OPTIONAL.forEach((property, cName) -> {
      if (listed.contains(cName)) {
        supported.add(property);
      }
    });
    return Set.copyOf(supported);
  }

  /** A native template filled from {@code template}; the caller deletes it. Freed here if filling fails. */
  private Pointer allocate(SessionTemplate template) throws DrmaaException {
    CAttributes attributes = CAttributes.of(template);
    PointerByReference ref = new PointerByReference();
    byte[] err = buffer();
    check("drmaa_allocate_job_template", lib.drmaa_allocate_job_template(ref, err, BUFFER_LEN), err);
    Pointer jt = ref.getValue();
    try {
      for (Map.Entry<String, String> a : attributes.scalars().entrySet()) {
        byte[] e = buffer();
        check("drmaa_set_attribute(" + a.getKey() + ")", lib.drmaa_set_attribute(jt, a.getKey(), a.getValue(), e, BUFFER_LEN), e);
      }
      for (Map.Entry<String, List<String>> a : attributes.vectors().entrySet()) {
        byte[] e = buffer();
        check("drmaa_set_vector_attribute(" + a.getKey() + ")",
            lib.drmaa_set_vector_attribute(jt, a.getKey(), new StringArray(a.getValue().toArray(String[]::new)), e, BUFFER_LEN), e);
      }
      return jt;
    } catch (DrmaaException | RuntimeException e) {
      release(jt);
      throw e;
    }
  }

  /**
   * Frees a native template whatever happened before: a template the library cannot free is a
   * small leak, and must neither lose a job already submitted nor hide the error being thrown.
   */
  private void release(Pointer jt) {
    lib.drmaa_delete_job_template(jt, buffer(), BUFFER_LEN);
  }

  // --- calls and their errors ------------------------------------------------------------------

  private interface IntCall {
    int call(IntByReference value, byte[] err);
  }

  private interface TextCall {
    int call(byte[] value, byte[] err);
  }

  private static int value(String what, IntCall call) throws DrmaaException {
    IntByReference v = new IntByReference();
    byte[] err = buffer();
    check(what, call.call(v, err), err);
    return v.getValue();
  }

  private static boolean flag(String what, IntCall call) throws DrmaaException {
    return value(what, call) != 0;
  }

  /** A text answer of a call the standard lets throw no checked exception. */
  private static String text(String what, TextCall call) {
    byte[] value = buffer();
    byte[] err = buffer();
    unchecked(what, call.call(value, err), err);
    return string(value);
  }

  private static void check(String what, int rc, byte[] err) throws DrmaaException {
    if (rc != ErrorCodes.SUCCESS) {
      String diagnosis = string(err);
      ErrorCodes.raise(rc, what + ": " + (diagnosis.isEmpty() ? "DRMAA error " + rc : diagnosis));
    }
  }

  private static void unchecked(String what, int rc, byte[] err) {
    try {
      check(what, rc, err);
    } catch (DrmaaException e) {
      throw new InternalException(e.getMessage());
    }
  }

  private static byte[] buffer() {
    return new byte[BUFFER];
  }

  private static String string(byte[] buffer) {
    int n = 0;
    while (n < buffer.length && buffer[n] != 0) {
      n++;
    }
    return new String(buffer, 0, n, StandardCharsets.UTF_8);
  }
}
