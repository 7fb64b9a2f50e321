package org.ggf.drmaa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * This package against Grid Engine's {@code org.ggf.drmaa} (Debian's {@code libdrmaa1.0-java}),
 * class by class: a program compiled against either links against the other. Every public class
 * there is here and no other; the same kind, modifiers, superclass and interfaces; every public
 * and protected field with its erased type and constant value; every public and protected
 * constructor and method with its erased signature, modifiers and declared exceptions. A member
 * only this package declares is allowed when it overrides one a supertype has (it changes no link).
 */
class StandardBindingFidelityIT {
  private static final String PACKAGE = "org/ggf/drmaa/";
  private static URLClassLoader reference;
  private static List<String> names;

  @BeforeAll
  static void openTheReference() throws Exception {
    Path jar = Path.of(System.getProperty("drmaa.reference.jar", "/usr/share/java/drmaa.jar"));
    assertTrue(Files.isRegularFile(jar), jar + " is missing: install Debian's libdrmaa1.0-java (testbed/up sge does)");
    reference = new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
    names = classesIn(jar);
  }

  @Test
  void theSamePublicClasses() throws Exception {
    Set<String> theirs = new TreeSet<>();
    for (String name : names) {
      if (Modifier.isPublic(reference.loadClass(name).getModifiers())) {
        theirs.add(name);
      }
    }
    assertEquals(34, theirs.size(), "Grid Engine's binding has 34 public classes (25 exceptions, 3 interfaces, 6 classes): " + theirs);
    Set<String> ours = new TreeSet<>();
    for (String file : ourClassFiles()) {
      Class<?> c = Class.forName(file);
      if (Modifier.isPublic(c.getModifiers())) {
        ours.add(file);
      }
    }
    assertEquals(theirs, ours);
  }

  @Test
  void everyClassHasTheSameShapeAndMembers() throws Exception {
    List<String> differences = new ArrayList<>();
    for (String name : names) {
      Class<?> theirs = reference.loadClass(name);
      if (!Modifier.isPublic(theirs.getModifiers())) {
        continue;
      }
      Class<?> ours = Class.forName(name);
      compare(name + " modifiers", Modifier.toString(theirs.getModifiers()), Modifier.toString(ours.getModifiers()), differences);
      compare(name + " superclass", String.valueOf(theirs.getSuperclass()), String.valueOf(ours.getSuperclass()), differences);
      compare(name + " interfaces", Arrays.stream(theirs.getInterfaces()).map(Class::getName).sorted().toList().toString(),
          Arrays.stream(ours.getInterfaces()).map(Class::getName).sorted().toList().toString(), differences);
      compare(name + " fields", fields(theirs), fields(ours), differences);
      compare(name + " constructors", executables(theirs.getDeclaredConstructors()), executables(ours.getDeclaredConstructors()), differences);
      Set<String> theirMethods = executables(theirs.getDeclaredMethods());
      Set<String> ourMethods = executables(ours.getDeclaredMethods());
      for (String m : theirMethods) {
        if (!ourMethods.contains(m)) {
          differences.add(name + " lacks " + m);
        }
      }
      for (Method m : ours.getDeclaredMethods()) {
        String signature = executable(m);
        if (visible(m.getModifiers()) && !m.isSynthetic() && !theirMethods.contains(signature) && !overrides(theirs, m)) {
          differences.add(name + " adds " + signature + ", which Grid Engine's lacks and which overrides nothing");
        }
      }
    }
    assertEquals(List.of(), differences);
  }

  @Test
  void theConstantsHaveTheSameValues() throws Exception {
    int constants = 0;
    for (String name : names) {
      Class<?> theirs = reference.loadClass(name);
      for (Field f : theirs.getDeclaredFields()) {
        int m = f.getModifiers();
        if (Modifier.isPublic(m) && Modifier.isStatic(m) && Modifier.isFinal(m)) {
          f.setAccessible(true);
          assertEquals(f.get(null), Class.forName(name).getField(f.getName()).get(null), name + "." + f.getName());
          constants++;
        }
      }
    }
    assertEquals(27, constants, "Session's 20, JobTemplate's 5, PartialTimestamp's 2");
  }

  private static void compare(String what, Object theirs, Object ours, List<String> differences) {
    if (!theirs.equals(ours)) {
      differences.add(what + ": Grid Engine's " + theirs + ", ours " + ours);
    }
  }

  private static Set<String> fields(Class<?> c) {
    return Arrays.stream(c.getDeclaredFields()).filter(f -> visible(f.getModifiers()) && !f.isSynthetic())
        .map(f -> Modifier.toString(f.getModifiers()) + " " + f.getType().getName() + " " + f.getName())
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<String> executables(Executable[] all) {
    return Arrays.stream(all).filter(e -> visible(e.getModifiers()) && !e.isSynthetic()).map(StandardBindingFidelityIT::executable)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /** Modifiers, erased return type, name, erased parameters and declared exceptions. */
  private static String executable(Executable e) {
    int modifiers = e.getModifiers() & (Modifier.PUBLIC | Modifier.PROTECTED | Modifier.STATIC | Modifier.ABSTRACT | Modifier.FINAL);
    String returns = e instanceof Method m ? m.getReturnType().getName() + " " : "";
    String name = e instanceof Constructor<?> ? "<init>" : e.getName();
    String throwsClause = Arrays.stream(e.getExceptionTypes()).map(Class::getName).sorted().collect(Collectors.joining(","));
    return Modifier.toString(modifiers) + " " + returns + name + Arrays.stream(e.getParameterTypes()).map(Class::getName)
        .collect(Collectors.joining(",", "(", ")")) + (throwsClause.isEmpty() ? "" : " throws " + throwsClause);
  }

  private static boolean visible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  /** Whether a supertype of Grid Engine's class (so of ours too) declares a method ours overrides. */
  private static boolean overrides(Class<?> theirs, Method ours) {
    List<Class<?>> supertypes = new ArrayList<>(Arrays.asList(theirs.getInterfaces()));
    for (Class<?> s = theirs.getSuperclass(); s != null; s = s.getSuperclass()) {
      supertypes.add(s);
      supertypes.addAll(Arrays.asList(s.getInterfaces()));
    }
    for (Class<?> s : supertypes) {
      try {
        Method m = s.getDeclaredMethod(ours.getName(), ours.getParameterTypes());
        if (visible(m.getModifiers()) && !Modifier.isStatic(m.getModifiers())) {
          return true;
        }
      } catch (NoSuchMethodException e) {
        // not this one
      }
    }
    return false;
  }

  private static List<String> ourClassFiles() throws Exception {
    return classesIn(Path.of(Session.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
  }

  /** The classes of the package, nested ones included, in a jar or a directory of classes. */
  private static List<String> classesIn(Path location) throws IOException {
    List<String> entries;
    if (Files.isDirectory(location)) {
      try (Stream<Path> files = Files.walk(location)) {
        entries = files.map(p -> location.relativize(p).toString().replace('\\', '/')).toList();
      }
    } else {
      try (JarFile file = new JarFile(location.toFile())) {
        entries = file.stream().map(ZipEntry::getName).toList();
      }
    }
    return entries.stream().filter(n -> n.startsWith(PACKAGE) && n.endsWith(".class") && n.indexOf('/', PACKAGE.length()) < 0)
        .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.')).sorted().toList();
  }
}
