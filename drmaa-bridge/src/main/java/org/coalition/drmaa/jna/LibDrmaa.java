package org.coalition.drmaa.jna;

import com.sun.jna.Library;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;
import com.sun.jna.StringArray;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * The DRMAA 1.0 C binding ({@code drmaa.h}) as JNA sees it. {@code size_t} and {@code signed long}
 * are {@link NativeLong} (both 64 bits on LP64 Linux); every call that can fail takes its own
 * error buffer, so concurrent calls never share one.
 */
interface LibDrmaa extends Library {
  int ERROR_BUFFER = 1024;
  int VALUE_BUFFER = 1024;

  int drmaa_init(String contact, byte[] err, NativeLong errLen);

  int drmaa_exit(byte[] err, NativeLong errLen);

  int drmaa_allocate_job_template(PointerByReference jt, byte[] err, NativeLong errLen);

  int drmaa_delete_job_template(Pointer jt, byte[] err, NativeLong errLen);

  int drmaa_set_attribute(Pointer jt, String name, String value, byte[] err, NativeLong errLen);

  int drmaa_set_vector_attribute(Pointer jt, String name, StringArray values, byte[] err, NativeLong errLen);

  int drmaa_run_job(byte[] jobId, NativeLong jobIdLen, Pointer jt, byte[] err, NativeLong errLen);

  int drmaa_run_bulk_jobs(PointerByReference ids, Pointer jt, int start, int end, int incr, byte[] err, NativeLong errLen);

  int drmaa_get_next_job_id(Pointer ids, byte[] value, NativeLong valueLen);

  void drmaa_release_job_ids(Pointer ids);

  int drmaa_get_next_attr_value(Pointer values, byte[] value, NativeLong valueLen);

  void drmaa_release_attr_values(Pointer values);

  int drmaa_get_attribute_names(PointerByReference values, byte[] err, NativeLong errLen);

  int drmaa_get_next_attr_name(Pointer values, byte[] value, NativeLong valueLen);

  void drmaa_release_attr_names(Pointer values);

  int drmaa_control(String jobId, int action, byte[] err, NativeLong errLen);

  int drmaa_synchronize(StringArray jobIds, NativeLong timeout, int dispose, byte[] err, NativeLong errLen);

  int drmaa_wait(String jobId, byte[] jobIdOut, NativeLong jobIdOutLen, IntByReference stat, NativeLong timeout, PointerByReference rusage,
      byte[] err, NativeLong errLen);

  int drmaa_wifexited(IntByReference exited, int stat, byte[] err, NativeLong errLen);

  int drmaa_wexitstatus(IntByReference exitStatus, int stat, byte[] err, NativeLong errLen);

  int drmaa_wifsignaled(IntByReference signaled, int stat, byte[] err, NativeLong errLen);

  int drmaa_wtermsig(byte[] signal, NativeLong signalLen, int stat, byte[] err, NativeLong errLen);

  int drmaa_wcoredump(IntByReference coreDumped, int stat, byte[] err, NativeLong errLen);

  int drmaa_wifaborted(IntByReference aborted, int stat, byte[] err, NativeLong errLen);

  int drmaa_job_ps(String jobId, IntByReference state, byte[] err, NativeLong errLen);

  int drmaa_get_contact(byte[] contact, NativeLong contactLen, byte[] err, NativeLong errLen);

  int drmaa_version(IntByReference major, IntByReference minor, byte[] err, NativeLong errLen);

  int drmaa_get_DRM_system(byte[] system, NativeLong systemLen, byte[] err, NativeLong errLen);

  int drmaa_get_DRMAA_implementation(byte[] impl, NativeLong implLen, byte[] err, NativeLong errLen);
}
