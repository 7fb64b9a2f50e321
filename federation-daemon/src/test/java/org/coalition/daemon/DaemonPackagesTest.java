package org.coalition.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The daemon's packages depend downwards only (docs/decisions/0017-daemon-renovation.md): the
 * façade on all, the home and executor sides on outputs and base, the executor on the pilot's
 * protocol, outputs, the pilot and the market desk on base, base on none. Read from the sources' imports, so that a
 * class that reaches back up fails here, by name, before it ties two rooms together again.
 */
class DaemonPackagesTest {
  private static final Path SOURCES = Path.of("src/main/java/org/coalition/daemon");
  private static final Pattern IMPORT = Pattern.compile("^import (?:static )?org\\.coalition\\.daemon((?:\\.[a-z]\\w*)*)\\.[A-Z]", Pattern.MULTILINE);

  private static final Map<String, Set<String>> ALLOWED = Map.of(
      "daemon", Set.of("base", "home", "executor", "outputs", "pilot", "market"),
      "market", Set.of("base"),
      "home", Set.of("base", "outputs"),
      "executor", Set.of("base", "outputs", "pilot"),
      "outputs", Set.of("base"),
      "pilot", Set.of("base"),
      "base", Set.of());

  @Test
  void eachPackageImportsOnlyThePackagesBelowIt() throws IOException {
    Map<String, Set<String>> wrong = new TreeMap<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        String from = SOURCES.relativize(f.getParent()).toString();
        String pkg = from.isEmpty() ? "daemon" : from;
        Matcher m = IMPORT.matcher(read(f));
        while (m.find()) {
          String to = m.group(1).isEmpty() ? "daemon" : m.group(1).substring(1);
          if (!to.equals(pkg) && !ALLOWED.getOrDefault(pkg, Set.of()).contains(to)) {
            wrong.computeIfAbsent(f.getFileName().toString(), k -> new TreeSet<>()).add(pkg + " -> " + to);
          }
        }
      }
    }
    assertEquals(Map.of(), wrong, "imports against the daemon's package order");
    try (Stream<Path> dirs = Files.list(SOURCES)) {
      List<String> packages = dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString()).sorted().toList();
      assertEquals(List.of("base", "executor", "home", "market", "outputs", "pilot"), packages, "a new package needs its place in ALLOWED");
    }
  }

  private static String read(Path f) {
    try {
      return Files.readString(f);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
