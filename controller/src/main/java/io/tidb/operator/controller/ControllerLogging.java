package io.tidb.operator.controller;

import java.util.Locale;

/**
 * The log settings of every mode of the image. slf4j-simple reads its settings once, when the
 * first logger is made, and picocli makes the subcommands (some of which hold a static logger)
 * before any command runs: so the level is taken from the arguments before picocli sees them.
 */
final class ControllerLogging {

  private ControllerLogging() {}

  /** The {@code --log-level} among {@code args} (either form), else {@code env}, else info. */
  static String level(String[] args, String env) {
    for (int i = 0; i < args.length; i++) {
      if (args[i].startsWith("--log-level=")) {
        return args[i].substring("--log-level=".length()).toLowerCase(Locale.ROOT);
      }
      if (args[i].equals("--log-level") && i + 1 < args.length) {
        return args[i + 1].toLowerCase(Locale.ROOT);
      }
    }
    return env == null || env.isBlank() ? "info" : env.toLowerCase(Locale.ROOT);
  }

  /** The image's SLF4J provider, named so that SLF4J need not search the class path for one. */
  static final String PROVIDER = "org.slf4j.simple.SimpleServiceProvider";

  /**
   * Sets slf4j-simple's level and timestamped lines; before the first logger is made. Also names
   * the provider ({@code slf4j.provider}, unless already set): without it SLF4J finds providers
   * through a {@code ServiceLoader} that reads every jar of the class path, about 35 ms of the
   * operator's start under C1. A name that cannot be loaded makes SLF4J search as before.
   */
  static void configure(String level) {
    if (System.getProperty("slf4j.provider") == null) {
      System.setProperty("slf4j.provider", PROVIDER);
    }
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", level);
    System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
    System.setProperty("org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX");
  }
}
