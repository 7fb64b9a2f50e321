package org.coalition.cli;

/** Process entry point of {@code bin/coalition}: wires the command line and exits with its code. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    Logging.configure(System.getenv("COALITION_LOG_FORMAT"));
    if (args.length == 0 || !Logging.SERVICES.contains(args[0])) {
      Logging.forPeople();
    }
    System.exit(CoalitionCommand.commandLine().execute(args));
  }
}
