package org.ggf.drmaa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where {@link SessionFactory#getFactory()} finds the implementation, in the standard's order, and what it says when it cannot. */
class SessionFactoryTest {
  private static final String PROPERTY = "org.ggf.drmaa.SessionFactory";
  @TempDir
  Path dir;

  @AfterEach
  void clear() {
    System.clearProperty(PROPERTY);
  }

  @Test
  void theSystemPropertyComesFirst() throws Exception {
    System.setProperty(PROPERTY, FirstFactory.class.getName());
    withServicesFile(SecondFactory.class.getName(), () -> assertInstanceOf(FirstFactory.class, SessionFactory.find()));
  }

  @Test
  void drmaaPropertiesUnderJavaHomeComesBeforeTheServicesFile() throws Exception {
    Path home = dir.resolve("jre");
    Files.createDirectories(home.resolve("lib"));
    Files.writeString(home.resolve("lib/drmaa.properties"), "# chosen by the site\n" + PROPERTY + " = " + FirstFactory.class.getName() + "\n");
    String javaHome = System.getProperty("java.home");
    System.setProperty("java.home", home.toString());
    try {
      withServicesFile(SecondFactory.class.getName(), () -> assertInstanceOf(FirstFactory.class, SessionFactory.find()));
    } finally {
      System.setProperty("java.home", javaHome);
    }
  }

  @Test
  void theServicesFileOnTheClassPathIsTheLastPlace() throws Exception {
    withServicesFile("# the implementation's jar\n" + SecondFactory.class.getName(), () -> assertInstanceOf(SecondFactory.class, SessionFactory.find()));
  }

  @Test
  void noImplementationAnywhereSaysWhereToPutOne() {
    Error e = assertThrows(Error.class, SessionFactory::find);
    assertTrue(e.getMessage().startsWith("no DRMAA implementation found: put one on the class path"), e.getMessage());
    assertTrue(e.getMessage().contains("-Dorg.ggf.drmaa.SessionFactory=CLASS"), e.getMessage());
  }

  @Test
  void aNameThatIsNoFactoryIsRefusedSayingWhereItCameFrom() {
    System.setProperty(PROPERTY, "org.example.Missing");
    Error missing = assertThrows(Error.class, SessionFactory::find);
    assertEquals("the system property " + PROPERTY + " names " + "org.example.Missing" + ", which is not on the class path: add the"
        + " implementation's jar, or fix the name", missing.getMessage());
    System.setProperty(PROPERTY, String.class.getName());
    assertTrue(assertThrows(Error.class, SessionFactory::find).getMessage().endsWith("which is not a " + PROPERTY + ": name the"
        + " implementation's factory"));
    System.setProperty(PROPERTY, FailingFactory.class.getName());
    assertTrue(assertThrows(Error.class, SessionFactory::find).getMessage().endsWith("which failed to start: " + IllegalStateException.class.getName()
        + ": no batch system here"));
  }

  @Test
  void theFactoryIsMadeOnceAndShared() {
    System.setProperty(PROPERTY, FirstFactory.class.getName());
    SessionFactory first = SessionFactory.getFactory();
    System.setProperty(PROPERTY, SecondFactory.class.getName());
    assertTrue(first == SessionFactory.getFactory(), "the same factory");
  }

  private void withServicesFile(String content, Callable<?> check) throws Exception {
    Path services = dir.resolve("cp/META-INF/services");
    Files.createDirectories(services);
    Files.writeString(services.resolve(PROPERTY), content + "\n");
    Thread thread = Thread.currentThread();
    ClassLoader before = thread.getContextClassLoader();
    try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.resolve("cp").toUri().toURL()}, getClass().getClassLoader())) {
      thread.setContextClassLoader(loader);
      check.call();
    } catch (IOException e) {
      throw new AssertionError(e);
    } finally {
      thread.setContextClassLoader(before);
    }
  }

  /** A factory for the lookup to find. */
  public static class FirstFactory extends SessionFactory {
    @Override
    public Session getSession() {
      return null;
    }
  }

  /** Another. */
  public static class SecondFactory extends FirstFactory {
  }

  /** One that fails as it is made. */
  public static class FailingFactory extends FirstFactory {
    /** Fails. */
    public FailingFactory() {
      throw new IllegalStateException("no batch system here");
    }
  }
}
