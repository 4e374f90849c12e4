package io.tidb.operator.controller.bench;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import io.tidb.operator.controller.tidbcluster.pd.PdObjects;
import io.tidb.operator.controller.tidbcluster.tidb.TidbObjects;
import io.tidb.operator.controller.tidbcluster.tikv.TikvObjects;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The CPU of building the desired ConfigMap and StatefulSet of PD, TiKV and TiDB, which every
 * reconcile of a cluster does (also a settled one, to compare them with the cached objects). A
 * program, not a test: run with the chart's JIT options, e.g. {@code java -XX:+UseSerialGC
 * -XX:TieredStopAtLevel=1 -cp <test classpath>
 * io.tidb.operator.controller.bench.DesiredObjectsBenchmark basic full}. Five rounds of 2,000
 * builds of each object; the last rounds are the warm figures.
 */
public final class DesiredObjectsBenchmark {

  private static final int BUILDS = 2000;

  private DesiredObjectsBenchmark() {}

  public static void main(String[] args) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (String name : args.length == 0 ? new String[] {"basic", "full"} : args) {
      TidbCluster tc = TestClusters.load(name);
      for (int round = 0; round < 5; round++) {
        StringBuilder line = new StringBuilder(name + ", round " + round + ":");
        line.append(measure(threads, "pd", tc, t -> PdObjects.configMap(t, Optional.empty()),
            (t, cm) -> PdObjects.statefulSet(t, cm, StatefulSetPlan.holding(3))));
        line.append(measure(threads, "tikv", tc, t -> TikvObjects.configMap(t, Optional.empty()),
            (t, cm) -> TikvObjects.statefulSet(t, cm, StatefulSetPlan.holding(3))));
        line.append(measure(threads, "tidb", tc, t -> TidbObjects.configMap(t, Optional.empty()),
            (t, cm) -> TidbObjects.statefulSet(t, cm, StatefulSetPlan.holding(2))));
        System.out.println(line);
      }
    }
  }

  private static String measure(ThreadMXBean threads, String component, TidbCluster tc,
      Function<TidbCluster, ConfigMap> configMap,
      BiFunction<TidbCluster, ConfigMap, ?> statefulSet) {
    ConfigMap cm = configMap.apply(tc);
    long start = threads.getCurrentThreadCpuTime();
    for (int i = 0; i < BUILDS; i++) {
      configMap.apply(tc);
    }
    long configs = threads.getCurrentThreadCpuTime();
    for (int i = 0; i < BUILDS; i++) {
      statefulSet.apply(tc, cm);
    }
    long sets = threads.getCurrentThreadCpuTime();
    return String.format(Locale.ROOT, " %s ConfigMap %.1f us, StatefulSet %.1f us;", component,
        (configs - start) / (BUILDS * 1e3), (sets - configs) / (BUILDS * 1e3));
  }
}
