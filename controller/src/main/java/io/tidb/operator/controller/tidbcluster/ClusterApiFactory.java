package io.tidb.operator.controller.tidbcluster;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.config.ComponentUrls;
import io.tidb.operator.controller.tidbcluster.member.MemberPods;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi;
import io.tidb.operator.controller.tidbcluster.pipeline.PdOwner;
import io.tidb.operator.controller.tidbcluster.tls.ClientSecretSource;
import io.tidb.operator.controller.tidbcluster.tls.ClusterTransports;
import io.tidb.operator.controller.tidbcluster.tls.ComponentHosts;
import io.tidb.operator.controller.tidbcluster.tls.ServerNames;
import io.tidb.operator.pd.PdClient;
import io.tidb.operator.pd.PdEtcdClient;
import io.tidb.operator.pd.PdClientOptions;
import io.tidb.operator.pd.PumpClient;
import io.tidb.operator.pd.TicdcClient;
import io.tidb.operator.pd.TidbStatusClient;
import io.tidb.operator.pd.TiproxyClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.util.function.Function;

/**
 * Makes the {@link ClusterApi} of each cluster from the configured URL templates. One JDK HTTP
 * client (and its connection pool) is shared by every plain cluster; a TLS cluster
 * ({@code spec.tlsCluster.enabled}) is reached over HTTPS with the client certificate of its
 * {@code <tc>-cluster-client-secret} (see {@link ClusterTransports}) for PD, TiDB, TiCDC, TiProxy
 * and Pump alike, an {@code http://}
 * template becoming {@code https://}. PD is the one of the cluster's {@link PdOwner}: for a
 * heterogeneous cluster without PD, the referenced cluster's.
 */
public final class ClusterApiFactory {

  private final ComponentUrls config;
  private final HttpClient http;
  private final TidbStatusClient tidb;
  private final ClusterTransports transports;
  private final TicdcClient ticdc;
  private final TiproxyClient tiproxy;
  private final PumpClient pump;

  public ClusterApiFactory(ComponentUrls config, ClientSecretSource secrets, Clock clock) {
    this.config = config;
    PdClientOptions options =
        PdClientOptions.defaults().withTimeouts(config.timeout(), config.timeout());
    this.http = options.newHttpClient();
    this.tidb = new TidbStatusClient(http, config.timeout());
    this.transports = new ClusterTransports(secrets, config.timeout(), clock);
    this.ticdc = new TicdcClient(http, config.timeout());
    this.tiproxy = new TiproxyClient(http, config.timeout());
    this.pump = new PumpClient(http, config.timeout());
  }

  /**
   * @throws io.tidb.operator.controller.tidbcluster.tls.ClusterTlsUnavailableException when the
   *     cluster has TLS and its client certificate Secret is missing or unusable
   */
  public ClusterApi forCluster(TidbCluster tc) {
    String namespace = tc.getMetadata().getNamespace();
    String name = tc.getMetadata().getName();
    String domain = tc.getSpec().getClusterDomain();
    PdOwner pdOwner = PdOwner.of(tc);
    URI pdUrl = config.pdUrl(pdOwner.namespace(), pdOwner.name(), pdOwner.clusterDomain());
    Function<String, URI> pdMemberUrl = member ->
        config.pdMemberUrl(pdOwner.namespace(), pdOwner.name(), pdOwner.clusterDomain(), member);
    Function<String, URI> tidbStatusUrl = pod -> config.tidbStatusUrl(namespace, name, domain, pod);
    Function<String, URI> ticdcUrl = pod -> config.ticdcUrl(namespace, name, domain, pod);
    Function<String, URI> tiproxyUrl = pod -> config.tiproxyUrl(namespace, name, domain, pod);
    Function<String, URI> pumpUrl = pod -> config.pumpUrl(namespace, name, domain, pod);
    if (!MemberPods.tlsCluster(tc)) {
      return new HttpClusterApi(
          new PdClient(pdUrl, http, config.timeout()), tidb, tidbStatusUrl, pdMemberUrl,
          ticdc, ticdcUrl, new HttpClusterApi.Proxy(tiproxy, tiproxyUrl),
          new HttpClusterApi.Binlog(new PdEtcdClient(pdUrl, http, config.timeout()),
              pod -> pump, pumpUrl));
    }
    ClusterTransports.Transport tls = transports.forCluster(namespace, name,
        ServerNames.of(name, namespace, domain).withPd(
            ComponentHosts.pdService(pdOwner.name(), pdOwner.namespace(), pdOwner.clusterDomain())));
    return new HttpClusterApi(
        new PdClient(https(pdUrl), tls.pd(), config.timeout()),
        new TidbStatusClient(tls.tidb(), config.timeout()),
        pod -> https(tidbStatusUrl.apply(pod)),
        member -> https(pdMemberUrl.apply(member)),
        new TicdcClient(tls.ticdc(), config.timeout()),
        pod -> https(ticdcUrl.apply(pod)),
        new HttpClusterApi.Proxy(new TiproxyClient(tls.tiproxy(), config.timeout()),
            pod -> https(tiproxyUrl.apply(pod))),
        new HttpClusterApi.Binlog(
            new PdEtcdClient(https(pdUrl), tls.pd(), config.timeout()),
            pod -> new PumpClient(tls.pump(pod), config.timeout()),
            pod -> https(pumpUrl.apply(pod))));
  }

  /**
   * The etcd API that the cluster's PD embeds (TiDB Dashboard's topology keys), over the same
   * transport as {@link #forCluster}: plain, or mutual TLS for a TLS cluster.
   *
   * @throws io.tidb.operator.controller.tidbcluster.tls.ClusterTlsUnavailableException as {@link
   *     #forCluster}
   */
  public PdEtcdClient pdEtcd(TidbCluster tc) {
    String namespace = tc.getMetadata().getNamespace();
    String name = tc.getMetadata().getName();
    String domain = tc.getSpec().getClusterDomain();
    if (!MemberPods.tlsCluster(tc)) {
      return new PdEtcdClient(config.pdUrl(namespace, name, domain), http, config.timeout());
    }
    ClusterTransports.Transport tls =
        transports.forCluster(namespace, name, ServerNames.of(name, namespace, domain));
    return new PdEtcdClient(https(config.pdUrl(namespace, name, domain)), tls.pd(), config.timeout());
  }

  /** The URL with {@code https} for {@code http}: a TLS cluster is never called in plain text. */
  static URI https(URI url) {
    return "http".equals(url.getScheme())
        ? URI.create("https" + url.toString().substring("http".length()))
        : url;
  }
}
