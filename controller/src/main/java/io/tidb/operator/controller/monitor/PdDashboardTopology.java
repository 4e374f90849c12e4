package io.tidb.operator.controller.monitor;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.config.ComponentUrls;
import io.tidb.operator.pd.PdClientOptions;
import io.tidb.operator.pd.PdEtcdClient;
import java.net.http.HttpClient;
import java.time.Duration;

/** {@link DashboardTopology} through etcd's JSON gateway on each cluster's PD service. */
public final class PdDashboardTopology implements DashboardTopology {

  private final ComponentUrls urls;
  private final HttpClient http;

  public PdDashboardTopology(ComponentUrls urls) {
    this.urls = urls;
    this.http = PdClientOptions.defaults().withTimeouts(urls.timeout(), urls.timeout()).newHttpClient();
  }

  @Override
  public void put(TidbCluster cluster, String key, String value, Duration ttl) {
    new PdEtcdClient(
            urls.pdUrl(cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(),
                cluster.getSpec().getClusterDomain()),
            http, urls.timeout())
        .putWithTtl(key, value, ttl);
  }
}
