package org.coalition.drmaa;

import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.ggf.drmaa.InvalidJobTemplateException;
import org.ggf.drmaa.JobTemplate;

/**
 * The job templates one session made and has not deleted, as the C binding keeps its allocated
 * ones: made, checked when passed back, deleted one by one or all at once when the session exits
 * (Grid Engine's binding, the standard's reference, refuses a template of an exited session as it
 * refuses a deleted one). A template that is not the session's, or deleted, is
 * {@link InvalidJobTemplateException}; a null one {@link NullPointerException}, as there.
 */
public final class SessionTemplates {
  private final Object session;
  private final Set<SessionTemplate> live = ConcurrentHashMap.newKeySet();

  /**
   * The templates of a session.
   *
   * @param session the session
   */
  public SessionTemplates(Object session) {
    this.session = session;
  }

  /**
   * A new template.
   *
   * @param supported the optional attributes the back end supports, of {@link SessionTemplate#OPTIONAL}
   * @return the template
   */
  public SessionTemplate create(Set<String> supported) {
    SessionTemplate t = new SessionTemplate(session, supported);
    live.add(t);
    return t;
  }

  /**
   * A template passed back to the session, as the session may use it.
   *
   * @param template what the program passed
   * @param call the call, for the message
   * @return the template
   * @throws InvalidJobTemplateException when it is not the session's, or was deleted
   */
  public SessionTemplate check(JobTemplate template, String call) throws InvalidJobTemplateException {
    Objects.requireNonNull(template, () -> call + ": the job template is null");
    if (!(template instanceof SessionTemplate t) || !t.madeBy(session)) {
      throw new InvalidJobTemplateException(call + ": the job template was not made by this session's createJobTemplate");
    }
    if (t.deleted()) {
      throw new InvalidJobTemplateException(call + ": the job template was deleted, or its session exited");
    }
    return t;
  }

  /**
   * Deletes a template: it refuses every use from now on.
   *
   * @param template the template
   * @throws InvalidJobTemplateException when it is not the session's, or was deleted already
   */
  public void delete(JobTemplate template) throws InvalidJobTemplateException {
    SessionTemplate t = check(template, "drmaa_delete_job_template");
    live.remove(t);
    t.delete();
  }

  /** Deletes every template not deleted yet: the session exits. */
  public void deleteAll() {
    live.forEach(SessionTemplate::delete);
    live.clear();
  }
}
