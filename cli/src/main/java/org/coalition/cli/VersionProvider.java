package org.coalition.cli;

import picocli.CommandLine;

/** Prints the version Maven wrote into the jar's manifest. */
final class VersionProvider implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    String version = CoalitionCommand.class.getPackage().getImplementationVersion();
    return new String[] {
      "coalition " + (version == null ? "(development build)" : version),
      "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"
    };
  }
}
