package org.coalition.condor;

import java.util.Optional;
import org.ggf.drmaa.Session;
import org.ggf.drmaa.SessionFactory;

/**
 * The standard factory of {@link CondorSession}: HTCondor's tools on the {@code PATH}, jobs
 * submitted as the program's own user. A DRMAA program selects it with
 * {@code -Dorg.ggf.drmaa.SessionFactory=org.coalition.condor.CondorSessionFactory} (or a
 * {@code drmaa.properties} saying so); a process has one session, the same at every call.
 */
public final class CondorSessionFactory extends SessionFactory {
  private CondorSession session;

  /** The factory. */
  public CondorSessionFactory() {
  }

  @Override
  public synchronized Session getSession() {
    if (session == null) {
      session = new CondorSession(CondorTools.onPath(), Optional.empty());
    }
    return session;
  }
}
