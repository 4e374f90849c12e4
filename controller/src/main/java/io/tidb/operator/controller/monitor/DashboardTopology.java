package io.tidb.operator.controller.monitor;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.time.Duration;

/**
 * Where TiDB Dashboard finds Prometheus and Grafana: keys in the etcd that a cluster's PD embeds
 * ({@code /topology/prometheus}, {@code /topology/grafana}), each under a lease so a removed
 * monitor's address disappears. {@link PdDashboardTopology} is the real one.
 */
public interface DashboardTopology {

  /** Writes {@code key} into {@code cluster}'s PD etcd with a lease of {@code ttl}; throws on failure. */
  void put(TidbCluster cluster, String key, String value, Duration ttl);
}
