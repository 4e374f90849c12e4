package io.tidb.operator.controller.monitor;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.tidbcluster.ClusterApiFactory;
import java.time.Duration;

/**
 * {@link DashboardTopology} through etcd's JSON gateway on each cluster's PD service, reached as
 * the TidbCluster controller reaches PD (mutual TLS with the cluster's client certificate for a
 * TLS cluster).
 */
public final class PdDashboardTopology implements DashboardTopology {

  private final ClusterApiFactory clusters;

  public PdDashboardTopology(ClusterApiFactory clusters) {
    this.clusters = clusters;
  }

  @Override
  public void put(TidbCluster cluster, String key, String value, Duration ttl) {
    clusters.pdEtcd(cluster).putWithTtl(key, value, ttl);
  }
}
