package org.ggf.drmaa;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Properties;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Where a program gets the {@link Session} of the DRMAA implementation in use, without naming it.
 *
 * <p>{@link #getFactory()} finds the implementation's factory class by the name
 * {@value #PROPERTY}, looked up in this order, the first found winning:
 * <ol>
 *   <li>the system property of that name ({@code -Dorg.ggf.drmaa.SessionFactory=...});
 *   <li>the same key in {@code $java.home/lib/drmaa.properties};
 *   <li>a {@code META-INF/services/org.ggf.drmaa.SessionFactory} file on the class path, as
 *       {@link ServiceLoader} reads it (the first one found).
 * </ol>
 * The class must extend {@code SessionFactory} and have a public constructor without arguments.
 * The factory is made once per class loader that loaded this class, and shared.
 */
public abstract class SessionFactory {
  private static final String PROPERTY = "org.ggf.drmaa.SessionFactory";
  private static SessionFactory factory;

  /** For implementations. */
  public SessionFactory() {
  }

  /**
   * The implementation's session. Whether each call makes a new object or returns the same one
   * is the implementation's choice; a process has at most one active session either way.
   *
   * @return the session, not yet initialised
   */
  public abstract Session getSession();

  /**
   * The factory of the DRMAA implementation in use, found as the class comment says.
   *
   * @return the factory
   * @throws Error when no implementation is named anywhere, or the class named cannot be loaded
   *     or made; the message says which name came from where and how to fix it
   */
  public static synchronized SessionFactory getFactory() {
    if (factory == null) {
      factory = find();
    }
    return factory;
  }

  /** The lookup itself, every call afresh (tests call it; programs call {@link #getFactory()}). */
  static SessionFactory find() {
    ClassLoader loader = loader();
    String name = System.getProperty(PROPERTY);
    if (name != null && !name.isBlank()) {
      return make(name.trim(), "the system property " + PROPERTY, loader);
    }
    Path file = Path.of(System.getProperty("java.home"), "lib", "drmaa.properties");
    name = fromFile(file);
    if (name != null) {
      return make(name, PROPERTY + " in " + file, loader);
    }
    try {
      Iterator<SessionFactory> services = ServiceLoader.load(SessionFactory.class, loader).iterator();
      if (services.hasNext()) {
        return services.next();
      }
    } catch (ServiceConfigurationError e) {
      throw new Error("no DRMAA SessionFactory: the class path's META-INF/services/" + PROPERTY + " names one that cannot be made: "
          + e.getMessage(), e);
    }
    throw new Error("no DRMAA implementation found: put one on the class path (its jar names its factory in META-INF/services/" + PROPERTY
        + "), or name its factory class with -D" + PROPERTY + "=CLASS or in " + file);
  }

  private static ClassLoader loader() {
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    return context != null ? context : SessionFactory.class.getClassLoader();
  }

  private static String fromFile(Path file) {
    if (!Files.isRegularFile(file)) {
      return null;
    }
    Properties properties = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      properties.load(in);
    } catch (IOException | IllegalArgumentException e) {
      throw new Error("cannot read " + file + " for " + PROPERTY + ": " + e.getMessage(), e);
    }
    String name = properties.getProperty(PROPERTY);
    return name == null || name.isBlank() ? null : name.trim();
  }

  private static SessionFactory make(String name, String source, ClassLoader loader) {
    Class<?> type;
    try {
      type = Class.forName(name, true, loader);
    } catch (ClassNotFoundException e) {
      throw new Error(source + " names " + name + ", which is not on the class path: add the implementation's jar, or fix the name", e);
    } catch (LinkageError e) {
      throw new Error(source + " names " + name + ", which cannot be loaded: " + e, e);
    }
    if (!SessionFactory.class.isAssignableFrom(type)) {
      throw new Error(source + " names " + name + ", which is not a " + SessionFactory.class.getName() + ": name the implementation's factory");
    }
    try {
      return (SessionFactory) type.getConstructor().newInstance();
    } catch (NoSuchMethodException | IllegalAccessException e) {
      throw new Error(source + " names " + name + ", which has no public constructor without arguments", e);
    } catch (InstantiationException | InvocationTargetException e) {
      Throwable cause = e instanceof InvocationTargetException ite ? ite.getCause() : e;
      throw new Error(source + " names " + name + ", which failed to start: " + cause, cause);
    }
  }
}
