package io.tidb.operator.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** Runs a short-lived command (helm, kubectl) to completion and captures its output. */
final class Commands {

  private Commands() {
  }

  static CommandResult run(List<String> command, Map<String, String> environment, Duration timeout) {
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(environment);
    try {
      Process process = builder.start();
      process.getOutputStream().close();
      CompletableFuture<String> stdout = drain(process.getInputStream());
      CompletableFuture<String> stderr = drain(process.getErrorStream());
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(String.join(" ", command) + " did not finish within " + timeout.toSeconds() + "s");
      }
      return new CommandResult(command, process.exitValue(), stdout.get(), stderr.get());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command.get(0), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + command.get(0), e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot read the output of " + command.get(0), e.getCause());
    }
  }

  private static CompletableFuture<String> drain(InputStream stream) {
    return CompletableFuture.supplyAsync(() -> {
      try (stream) {
        return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }
}
