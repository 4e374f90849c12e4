package io.tidb.operator.controller.tidbcluster.pipeline;

import io.tidb.operator.api.v1alpha1.cluster.ComponentSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterSpec;
import java.util.List;
import java.util.function.Function;

/**
 * Upstream's order of suspension ({@code suspendAction.suspendStatefulSet}), a contract between
 * components like {@link ClusterAddresses}: a component is suspended only after those before it
 * that are to be suspended have lost their StatefulSets. TiDB, TiFlash, TiCDC, TiKV, Pump, PD.
 */
public final class SuspendOrder {

  /** One component in the order: its label, display name and spec. */
  public record Entry(Component component, String displayName,
      Function<TidbClusterSpec, ? extends ComponentSpec> spec) {}

  public static final List<Entry> ORDER = List.of(
      new Entry(new Component("tidb"), "TiDB", TidbClusterSpec::getTidb),
      new Entry(new Component("tiflash"), "TiFlash", TidbClusterSpec::getTiflash),
      new Entry(new Component("ticdc"), "TiCDC", TidbClusterSpec::getTicdc),
      new Entry(new Component("tikv"), "TiKV", TidbClusterSpec::getTikv),
      new Entry(new Component("pump"), "Pump", TidbClusterSpec::getPump),
      new Entry(ClusterAddresses.PD, "PD", TidbClusterSpec::getPd));

  private SuspendOrder() {}
}
