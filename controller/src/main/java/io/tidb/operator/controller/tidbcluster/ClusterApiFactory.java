package io.tidb.operator.controller.tidbcluster;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.config.ComponentUrls;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi;
import io.tidb.operator.pd.PdClient;
import io.tidb.operator.pd.PdClientOptions;
import io.tidb.operator.pd.TicdcClient;
import io.tidb.operator.pd.TidbStatusClient;
import java.net.http.HttpClient;

/**
 * Makes the {@link ClusterApi} of each cluster from the configured URL templates. One JDK
 * HTTP client (and its connection pool) is shared by every cluster.
 */
public final class ClusterApiFactory {

  private final ComponentUrls config;
  private final HttpClient http;
  private final TidbStatusClient tidb;
  private final TicdcClient ticdc;

  public ClusterApiFactory(ComponentUrls config) {
    this.config = config;
    PdClientOptions options =
        PdClientOptions.defaults().withTimeouts(config.timeout(), config.timeout());
    this.http = options.newHttpClient();
    this.tidb = new TidbStatusClient(http, config.timeout());
    this.ticdc = new TicdcClient(http, config.timeout());
  }

  public ClusterApi forCluster(TidbCluster tc) {
    String namespace = tc.getMetadata().getNamespace();
    String name = tc.getMetadata().getName();
    String domain = tc.getSpec().getClusterDomain();
    return new HttpClusterApi(
        new PdClient(config.pdUrl(namespace, name, domain), http, config.timeout()),
        tidb,
        pod -> config.tidbStatusUrl(namespace, name, domain, pod),
        member -> config.pdMemberUrl(namespace, name, domain, member),
        ticdc,
        pod -> config.ticdcUrl(namespace, name, domain, pod));
  }
}
