package org.coalition.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.joran.spi.JoranException;
import java.nio.file.Path;
import java.util.Set;
import org.coalition.config.SiteConfig;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/** The application's logging: Logback (configured by {@code logback.xml}), with java.util.logging bridged to it. */
public final class Logging {
  /** The commands that run until stopped and log what they do; every other command answers a person, who reads its output. */
  static final Set<String> SERVICES = Set.of("daemon", "trial", "demo", "pilot");

  private Logging() {}

  /**
   * A command that answers a person ({@code federation list}, {@code status}): what it prints is
   * the answer, and its errors are its own one line; the libraries' logs (ZooKeeper's and Netty's
   * stack traces for every connection tried) are not shown, nor Coalition's below a warning.
   * {@code -Dlogback.configurationFile} in {@code COALITION_JAVA_OPTS} brings them back.
   */
  static void forPeople() {
    if (System.getProperty("logback.configurationFile") != null) {
      return;
    }
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    // fully qualified: clashes with Logback's Logger, the type of the root here
    context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).setLevel(Level.OFF);
    context.getLogger("org.coalition").setLevel(Level.WARN);
  }

  /**
   * Chooses the format before the first logger exists: text ({@code logback.xml}), or one JSON
   * object per event ({@code logback-json.xml}) when {@code COALITION_LOG_FORMAT=json}; then sends
   * java.util.logging (Jersey, the JDK's HTTP server) through SLF4J, so every line has one format.
   */
  public static void configure(String format) {
    if ("json".equals(format) && System.getProperty("logback.configurationFile") == null) {
      System.setProperty("logback.configurationFile", "logback-json.xml");
    }
    SLF4JBridgeHandler.removeHandlersForRootLogger();
    SLF4JBridgeHandler.install();
  }

  /**
   * The site file's {@code logging}: Coalition's own loggers at its level, and its format unless
   * {@code COALITION_LOG_FORMAT} or {@code -Dlogback.configurationFile} chose one for this run.
   */
  static void apply(SiteConfig.LogSettings settings, String formatFromEnvironment) {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    if (formatFromEnvironment == null && System.getProperty("logback.configurationFile") == null
        && settings.format() == SiteConfig.LogSettings.Format.JSON) {
      JoranConfigurator joran = new JoranConfigurator();
      joran.setContext(context);
      context.reset();
      try {
        joran.doConfigure(Logging.class.getResource("/logback-json.xml"));
      } catch (JoranException e) {
        throw new IllegalStateException("the shipped logback-json.xml does not load: " + e.getMessage(), e);
      }
    }
    context.getLogger("org.coalition").setLevel(Level.toLevel(settings.level().name()));
  }

  /** From now on every line goes to {@code file} instead of stderr, in the same format (the demo's decision log). */
  static void toFile(Path file) {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern("%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX, UTC} [%thread] [%level] %logger - %msg%n");
    encoder.start();
    FileAppender<ILoggingEvent> appender = new FileAppender<>();
    appender.setContext(context);
    appender.setName("file");
    appender.setFile(file.toString());
    appender.setEncoder(encoder);
    appender.start();
    // fully qualified: clashes with Logback's Logger, the type of the root here
    Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.detachAndStopAllAppenders();
    root.addAppender(appender);
  }
}
