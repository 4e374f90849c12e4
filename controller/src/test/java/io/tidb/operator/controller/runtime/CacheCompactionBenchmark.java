package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.tidb.operator.api.ApiObjects;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The CPU of storing an object in an informer's cache ({@link PrunedItemStore}: its managedFields
 * pruned, the object compacted by {@link CachedObjectCompactor}) against that of reading it from
 * JSON, over recorded watch events (by default common's {@code
 * watch-events/pod-and-statefulset.jsonl}, a Pod's and a StatefulSet's as a local API server sent
 * them). A program, not a test; run it with the chart's JIT options, from the repository's root:
 * {@code java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xmn12m
 * -Dsun.reflect.inflationThreshold=2147483647 -cp <the controller's test class path>
 * io.tidb.operator.controller.runtime.CacheCompactionBenchmark [events.jsonl]}. It prints six
 * rounds of 3,000 objects; the last ones are the warm figures.
 */
public final class CacheCompactionBenchmark {

  private static final int ROUNDS = 6;
  private static final int OBJECTS = 3000;

  private CacheCompactionBenchmark() {}

  public static void main(String[] args) throws IOException {
    Path file = Path.of(args.length > 0
        ? args[0]
        : "common/src/test/resources/watch-events/pod-and-statefulset.jsonl");
    List<String> events = Files.readAllLines(file).stream().filter(line -> !line.isBlank()).toList();
    java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    PrunedItemStore<HasMetadata> store = new PrunedItemStore<>();
    for (int round = 1; round <= ROUNDS; round++) {
      long reading = 0;
      long storing = 0;
      for (int i = 0; i < OBJECTS; i++) {
        long start = threads.getCurrentThreadCpuTime();
        WatchEvent event = ApiObjects.parse(events.get(i % events.size()), WatchEvent.class);
        long read = threads.getCurrentThreadCpuTime();
        if (!(event.getObject() instanceof HasMetadata object)) {
          throw new IllegalStateException("an event without an object: " + file);
        }
        store.put(store.getKey(object), object);
        long stored = threads.getCurrentThreadCpuTime();
        reading += read - start;
        storing += stored - read;
      }
      System.out.printf(java.util.Locale.ROOT,
          "round %d: read from JSON %.1f µs, stored (pruned, compacted) %.1f µs of CPU per object"
              + " (%d objects)%n",
          round, reading / 1e3 / OBJECTS, storing / 1e3 / OBJECTS, OBJECTS);
    }
  }
}
