package org.coalition.testbed;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/** Entry point: locate the testbed folder and the instances started in it. */
public final class Testbed {
  /** Environment variable that moves the testbed folder (the scripts read the same one). */
  public static final String DIR_VARIABLE = "COALITION_TESTBED_DIR";
  /** Where the scripts keep their state when the variable is unset. */
  public static final Path DEFAULT_DIR = Path.of("/var/tmp/coalition-testbed");

  private final Path home;

  Testbed(Path home) {
    this.home = Objects.requireNonNull(home);
  }

  /** The testbed of this machine, as the environment says. */
  public static Testbed local() {
    return fromEnvironment(System.getenv());
  }

  static Testbed fromEnvironment(Map<String, String> env) {
    String dir = env.get(DIR_VARIABLE);
    return new Testbed(dir == null || dir.isBlank() ? DEFAULT_DIR : Path.of(dir));
  }

  /** Shorthand for {@code local().instance(name)}. */
  public static Instance require(String instance) {
    return local().instance(instance);
  }

  public Path home() {
    return home;
  }

  /**
   * A started instance, e.g. {@code slurm22-c1}, {@code slurm24-c1}, {@code condor}, {@code sge}.
   *
   * @throws TestbedNotUpException when the instance has not been started (a failure, not a skip)
   */
  public Instance instance(String name) {
    Path file = home.resolve("run").resolve(name).resolve("testbed.properties");
    if (!Files.isRegularFile(file)) {
      throw new TestbedNotUpException(
          "testbed instance '" + name + "' is not up: " + file + " does not exist. Start it with: "
              + "sudo testbed/up " + systemArgument(name) + " (or run the whole suite with bash .ci/run)");
    }
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(reader);
    } catch (IOException e) {
      throw new TestbedNotUpException("cannot read " + file + ": " + e.getMessage(), e);
    }
    return new Instance(name, file, properties);
  }

  /** Maps an instance folder name back to the argument testbed/up takes. */
  static String systemArgument(String instance) {
    int dash = instance.indexOf('-');
    if (instance.startsWith("slurm") && dash > 0) {
      return instance.substring(0, dash) + ":" + instance.substring(dash + 1);
    }
    return instance;
  }
}
