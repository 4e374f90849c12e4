package io.tidb.operator.controller.backup.manager;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Runs BR as a child process with this process's environment (where the kubelet put the storage
 * credentials), passing its output through line by line and keeping the last lines for {@link
 * BrSummary}.
 */
final class BrProcess {

  static final int KEPT_LINES = 400;

  record Result(int exitCode, List<String> lastLines) {}

  private BrProcess() {}

  static Result run(List<String> command, PrintStream out) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getOutputStream().close();
    Deque<String> kept = new ArrayDeque<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        out.println(line);
        kept.addLast(line);
        if (kept.size() > KEPT_LINES) {
          kept.removeFirst();
        }
      }
    }
    return new Result(p.waitFor(), new ArrayList<>(kept));
  }
}
