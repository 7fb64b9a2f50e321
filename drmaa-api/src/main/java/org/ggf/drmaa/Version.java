package org.ggf.drmaa;

import java.io.Serializable;

/**
 * A version of the DRMAA standard, major and minor: {@link Session#getVersion} answers 1.0.
 * Versions order by major, then minor.
 */
// Comparable stays raw: the standard's compareTo takes an Object, and a program compiled against
// it calls compareTo(Object); a typed Comparable would add compareTo(Version), which the
// standard's other copies lack.
@SuppressWarnings("rawtypes")
public class Version implements Serializable, Cloneable, Comparable {
  private static final long serialVersionUID = 1L;
  private final int major;
  private final int minor;

  /**
   * A version.
   *
   * @param major the major number, not negative
   * @param minor the minor number, not negative
   * @throws IllegalArgumentException when either is negative
   */
  public Version(int major, int minor) {
    if (major < 0 || minor < 0) {
      throw new IllegalArgumentException("a version's numbers are not negative: " + major + "." + minor);
    }
    this.major = major;
    this.minor = minor;
  }

  /**
   * The major number.
   *
   * @return it
   */
  public int getMajor() {
    return major;
  }

  /**
   * The minor number.
   *
   * @return it
   */
  public int getMinor() {
    return minor;
  }

  @Override
  public String toString() {
    return major + "." + minor;
  }

  @Override
  public boolean equals(Object obj) {
    return obj instanceof Version v && v.major == major && v.minor == minor;
  }

  @Override
  public int hashCode() {
    return 31 * major + minor;
  }

  @Override
  public Object clone() {
    try {
      return super.clone();
    } catch (CloneNotSupportedException e) {
      throw new AssertionError("Version is Cloneable", e);
    }
  }

  /**
   * Orders by major number, then minor.
   *
   * @param obj another {@code Version}
   * @return negative, zero or positive as this one is lower, equal or higher
   * @throws ClassCastException when {@code obj} is not a {@code Version}
   */
  @Override
  public int compareTo(Object obj) {
    Version other = (Version) obj;
    return major != other.major ? Integer.compare(major, other.major) : Integer.compare(minor, other.minor);
  }
}
