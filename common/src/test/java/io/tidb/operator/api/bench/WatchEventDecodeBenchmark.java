package io.tidb.operator.api.bench;

import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.tidb.operator.api.ApiObjects;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The CPU and allocation of reading a watch event's line into the model: fabric8's own mapping
 * (the object read into a JSON tree, then the tree into the model) against {@link ApiObjects}'
 * (the object read from the stream once). The events are a Pod's and a StatefulSet's, as a local
 * API server sent them ({@code watch-events/pod-and-statefulset.jsonl}). A program, not a test:
 * one mapping per JVM, so that each pays its own class loading and compiling, run with the chart's
 * JIT options, e.g. {@code java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xmn12m
 * -Dsun.reflect.inflationThreshold=2147483647 -cp <common's test classpath>
 * io.tidb.operator.api.bench.WatchEventDecodeBenchmark fabric8} and then {@code ... operator}.
 * It prints the first event, the next 2,000, and three rounds of 20,000.
 */
public final class WatchEventDecodeBenchmark {

  private static final int EARLY = 2000;
  private static final int ROUND = 20000;

  private WatchEventDecodeBenchmark() {}

  public static void main(String[] args) throws IOException {
    String mapping = args.length == 0 ? "operator" : args[0];
    Function<String, WatchEvent> read = switch (mapping) {
      case "fabric8" -> {
        KubernetesSerialization fabric8 = new KubernetesSerialization();
        yield line -> fabric8.unmarshal(line, WatchEvent.class);
      }
      case "operator" -> {
        ApiObjects.serialization();
        yield line -> ApiObjects.parse(line, WatchEvent.class);
      }
      default -> throw new IllegalArgumentException(
          "mapping \"" + mapping + "\": expected fabric8 or operator");
    };
    List<String> events = events();
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    int next = 0;
    int[] counts = {1, EARLY, ROUND, ROUND, ROUND};
    String[] names = {"first event", "next 2,000", "round 1", "round 2", "round 3"};
    for (int step = 0; step < counts.length; step++) {
      long cpu = threads.getCurrentThreadCpuTime();
      long bytes = threads.getCurrentThreadAllocatedBytes();
      for (int i = 0; i < counts[step]; i++) {
        WatchEvent event = read.apply(events.get(next++ % events.size()));
        if (event.getObject() == null) {
          throw new IllegalStateException("an event without its object");
        }
      }
      System.out.printf(Locale.ROOT, "%s, %s: %.1f us CPU and %.1f KiB per event%n",
          mapping, names[step],
          (threads.getCurrentThreadCpuTime() - cpu) / (counts[step] * 1e3),
          (threads.getCurrentThreadAllocatedBytes() - bytes) / (counts[step] * 1024.0));
    }
  }

  /** The events, one JSON line each. */
  public static List<String> events() throws IOException {
    try (InputStream in = WatchEventDecodeBenchmark.class.getResourceAsStream(
        "/watch-events/pod-and-statefulset.jsonl")) {
      if (in == null) {
        throw new IOException("watch-events/pod-and-statefulset.jsonl is not on the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
          .filter(line -> !line.isBlank()).toList();
    }
  }
}
