package io.tidb.operator.controller.monitor;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitorSpec;
import io.tidb.operator.api.v1alpha1.shared.TidbClusterRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The referenced clusters of a defaulted TidbMonitor as found in this reconcile: the ones that
 * exist (monitored) and the ones that do not (reported, not an error).
 *
 * @param tidb the TidbClusters found, in spec order
 * @param dm the DMClusters found, in spec order
 * @param tidbClusters the TidbCluster objects found, in spec order
 * @param missing {@code TidbCluster ns/name} or {@code DMCluster ns/name} of each one not found
 */
public record MonitoredClusters(
    List<MonitoredCluster> tidb,
    List<MonitoredCluster> dm,
    List<TidbCluster> tidbClusters,
    List<String> missing) {

  /** The first TidbCluster found, whose settings the initializer uses. */
  public Optional<TidbCluster> firstTidbCluster() {
    return tidbClusters.stream().findFirst();
  }

  public static MonitoredClusters find(TidbMonitor tm, MonitorReads reads) {
    TidbMonitorSpec spec = tm.getSpec();
    List<MonitoredCluster> tidb = new ArrayList<>();
    List<MonitoredCluster> dm = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    List<TidbCluster> found = new ArrayList<>();
    for (TidbClusterRef ref : refs(spec.getClusters())) {
      Optional<TidbCluster> tc = reads.tidbCluster(ref.getNamespace(), ref.getName());
      if (tc.isEmpty()) {
        missing.add("TidbCluster " + ref.getNamespace() + "/" + ref.getName());
        continue;
      }
      boolean tls = tc.get().getSpec() != null && tc.get().getSpec().getTlsCluster() != null
          && Boolean.TRUE.equals(tc.get().getSpec().getTlsCluster().getEnabled());
      tidb.add(new MonitoredCluster(ref.getNamespace(), ref.getName(), tls));
      found.add(tc.get());
    }
    for (TidbClusterRef ref : refs(spec.getDm() == null ? null : spec.getDm().getClusters())) {
      Optional<Boolean> tls = reads.dmClusterTls(ref.getNamespace(), ref.getName());
      if (tls.isEmpty()) {
        missing.add("DMCluster " + ref.getNamespace() + "/" + ref.getName());
        continue;
      }
      dm.add(new MonitoredCluster(ref.getNamespace(), ref.getName(), tls.get()));
    }
    return new MonitoredClusters(tidb, dm, found, missing);
  }

  /** What status.clusters shows: {@code ns/name} of each TidbCluster, {@code dm/ns/name} of each DMCluster. */
  public List<String> keys() {
    List<String> out = new ArrayList<>();
    tidb.forEach(c -> out.add(c.key()));
    dm.forEach(c -> out.add("dm/" + c.key()));
    return out;
  }

  private static List<TidbClusterRef> refs(List<TidbClusterRef> refs) {
    return refs == null ? List.of() : refs;
  }
}
