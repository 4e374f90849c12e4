package io.tidb.operator.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One of the operator's processes (webhook, controller, PD simulator) started with {@code java} from
 * the e2e module's runtime classpath, as hack/local-up.sh starts them. Output goes to
 * {@code target/e2e-logs/<name>.log}; closing sends SIGTERM (graceful shutdown) and waits.
 */
final class OperatorProcess implements AutoCloseable {

  static final String CLASSPATH_FILE_PROPERTY = "operator.classpath.file";
  static final Path LOG_DIRECTORY = Path.of("target", "e2e-logs");

  private final String name;
  private final Process process;
  private final Path log;

  private OperatorProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  static OperatorProcess start(String name, String mainClass, List<String> args, Map<String, String> environment) {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:+ExitOnOutOfMemoryError", "-Xmx384m", "-cp", classpath(), mainClass));
    command.addAll(args);
    try {
      Files.createDirectories(LOG_DIRECTORY);
      Path log = LOG_DIRECTORY.resolve(name + ".log");
      ProcessBuilder builder = new ProcessBuilder(command)
          .redirectErrorStream(true)
          .redirectOutput(log.toFile());
      builder.environment().putAll(environment);
      Process process = builder.start();
      process.getOutputStream().close();
      return new OperatorProcess(name, process, log);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name, e);
    }
  }

  /** The classpath hack/local-up.sh uses too: the e2e module's runtime dependencies. */
  static String classpath() {
    String file = System.getProperty(CLASSPATH_FILE_PROPERTY, "target/operator-classpath.txt");
    try {
      return Files.readString(Path.of(file)).strip();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + " (written by `mvn generate-test-resources -pl e2e`)", e);
    }
  }

  boolean isAlive() {
    return process.isAlive();
  }

  String output() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + log, e);
    }
  }

  /** Fails with the process's last output if it has exited. */
  void requireAlive() {
    if (!process.isAlive()) {
      throw new AssertionError(name + " exited with " + process.exitValue() + "; last output:\n" + tail());
    }
  }

  String tail() {
    List<String> lines = output().lines().toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }

  @Override
  public String toString() {
    return name + " (pid " + process.pid() + ", log " + log + ")";
  }
}
