package io.tidb.operator.api.bench;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.tidb.operator.api.ApiObjects;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;

/**
 * The CPU and allocation of what the controller does with model objects besides reading them:
 * a deep copy ({@link ApiObjects#deepCopy}, Jackson's token buffer: every getter, then every
 * setter) and writing JSON ({@link ApiObjects#toJson}, every getter), of the Pod and StatefulSet
 * of {@code watch-events/pod-and-statefulset.jsonl}. A program, not a test, run as {@link
 * WatchEventDecodeBenchmark} is (the chart's JIT and reflection options). It prints three rounds
 * of 20,000 of each after a warm-up of 2,000.
 */
public final class ModelCopyBenchmark {

  private static final int EARLY = 2000;
  private static final int ROUND = 20000;

  private ModelCopyBenchmark() {}

  public static void main(String[] args) throws IOException {
    List<HasMetadata> objects = WatchEventDecodeBenchmark.events().stream()
        .map(line -> (HasMetadata) ApiObjects.parse(line, WatchEvent.class).getObject())
        .toList();
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    String[] names = {"warm-up", "round 1", "round 2", "round 3"};
    int[] counts = {EARLY, ROUND, ROUND, ROUND};
    for (int step = 0; step < counts.length; step++) {
      long cpu = threads.getCurrentThreadCpuTime();
      long bytes = threads.getCurrentThreadAllocatedBytes();
      for (int i = 0; i < counts[step]; i++) {
        if (ApiObjects.deepCopy(objects.get(i % objects.size())) == null) {
          throw new IllegalStateException("no copy");
        }
      }
      long copied = threads.getCurrentThreadCpuTime();
      long copiedBytes = threads.getCurrentThreadAllocatedBytes();
      for (int i = 0; i < counts[step]; i++) {
        if (ApiObjects.toJson(objects.get(i % objects.size())).isEmpty()) {
          throw new IllegalStateException("no JSON");
        }
      }
      long written = threads.getCurrentThreadCpuTime();
      long writtenBytes = threads.getCurrentThreadAllocatedBytes();
      System.out.printf(Locale.ROOT,
          "%s: copy %.1f us CPU, %.1f KiB; JSON %.1f us CPU, %.1f KiB per object%n",
          names[step],
          (copied - cpu) / (counts[step] * 1e3), (copiedBytes - bytes) / (counts[step] * 1024.0),
          (written - copied) / (counts[step] * 1e3),
          (writtenBytes - copiedBytes) / (counts[step] * 1024.0));
    }
  }
}
