package org.coalition.drmaa.jna;

import java.util.Optional;
import org.ggf.drmaa.Session;
import org.ggf.drmaa.SessionFactory;

/**
 * The standard factory of {@link NativeSession}, over the library {@code $DRMAA_LIBRARY_PATH}
 * names: what {@link SessionFactory#getFactory()} finds through this jar's
 * {@code META-INF/services/org.ggf.drmaa.SessionFactory}, or through
 * {@code -Dorg.ggf.drmaa.SessionFactory=org.coalition.drmaa.jna.NativeSessionFactory}. A process
 * has one library and one session: every call answers the same one.
 */
public final class NativeSessionFactory extends SessionFactory {
  private NativeSession session;

  /** The factory; the library is loaded at the first {@link #getSession()}. */
  public NativeSessionFactory() {
  }

  /**
   * The session over {@code $DRMAA_LIBRARY_PATH}'s library.
   *
   * @throws DrmaaLibraryException when the variable is unset or the library cannot be loaded, saying how to fix it
   */
  @Override
  public synchronized Session getSession() {
    if (session == null) {
      session = NativeSession.load(Optional.empty());
    }
    return session;
  }
}
