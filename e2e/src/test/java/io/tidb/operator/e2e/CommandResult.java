package io.tidb.operator.e2e;

import java.util.List;

/**
 * What a finished command printed and how it exited.
 *
 * @param command the command line, for messages
 * @param exitCode its exit code
 * @param stdout standard output
 * @param stderr standard error
 */
record CommandResult(List<String> command, int exitCode, String stdout, String stderr) {

  boolean succeeded() {
    return exitCode == 0;
  }

  /** Returns this if the command exited 0, else fails with everything it printed. */
  CommandResult requireSuccess() {
    if (!succeeded()) {
      throw new AssertionError(describe());
    }
    return this;
  }

  String describe() {
    return String.join(" ", command) + " exited " + exitCode + "\n--- stdout\n" + stdout + "\n--- stderr\n" + stderr;
  }
}
