package io.tidb.operator.controller.bench;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.fixtures.TestClusters;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * The CPU of the copy JOSDK makes of a TidbCluster before each reconcile: fabric8's {@code clone}
 * (JOSDK's default: JSON text and back) against {@code convertValue} (Jackson's token buffer,
 * what the controller's cloner uses). A program, not a test: run with the chart's JIT options,
 * e.g. {@code java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp <test classpath>
 * io.tidb.operator.controller.bench.PrimaryCloneBenchmark basic full}. Five rounds of 3,000
 * copies each; the last rounds are the warm figures.
 */
public final class PrimaryCloneBenchmark {

  private static final int COPIES = 3000;

  private PrimaryCloneBenchmark() {}

  public static void main(String[] args) {
    KubernetesSerialization serialization = new KubernetesSerialization();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (String name : args.length == 0 ? new String[] {"basic", "full"} : args) {
      TidbCluster tc = TestClusters.load(name);
      for (int round = 0; round < 5; round++) {
        long start = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < COPIES; i++) {
          serialization.clone(tc);
        }
        long text = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < COPIES; i++) {
          serialization.convertValue(tc, TidbCluster.class);
        }
        long tokens = threads.getCurrentThreadCpuTime();
        System.out.printf(Locale.ROOT,
            "%s, round %d: clone through JSON text %.1f us, through the token buffer %.1f us%n",
            name, round, (text - start) / (COPIES * 1e3), (tokens - text) / (COPIES * 1e3));
      }
    }
  }
}
