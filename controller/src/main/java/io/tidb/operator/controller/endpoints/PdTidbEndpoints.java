package io.tidb.operator.controller.endpoints;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.config.ComponentEndpoints;
import io.tidb.operator.controller.pipeline.ClusterEndpoints;
import io.tidb.operator.pd.PdClient;
import io.tidb.operator.pd.PdClientOptions;
import io.tidb.operator.pd.TidbStatusClient;
import java.net.http.HttpClient;

/**
 * Makes the {@link ClusterEndpoints} of each cluster from the configured URL templates. One JDK
 * HTTP client (and its connection pool) is shared by every cluster.
 */
public final class PdTidbEndpoints {

  private final ComponentEndpoints config;
  private final HttpClient http;
  private final TidbStatusClient tidb;

  public PdTidbEndpoints(ComponentEndpoints config) {
    this.config = config;
    PdClientOptions options =
        PdClientOptions.defaults().withTimeouts(config.timeout(), config.timeout());
    this.http = options.newHttpClient();
    this.tidb = new TidbStatusClient(http, config.timeout());
  }

  public ClusterEndpoints forCluster(TidbCluster tc) {
    String namespace = tc.getMetadata().getNamespace();
    String name = tc.getMetadata().getName();
    String domain = tc.getSpec().getClusterDomain();
    return new PdClusterEndpoints(
        new PdClient(config.pdUrl(namespace, name, domain), http, config.timeout()),
        tidb,
        pod -> config.tidbStatusUrl(namespace, name, domain, pod));
  }
}
