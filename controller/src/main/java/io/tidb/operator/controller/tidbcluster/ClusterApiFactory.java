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
import io.tidb.operator.pd.ComponentHttp;
import io.tidb.operator.pd.PdClient;
import io.tidb.operator.pd.PdClientOptions;
import io.tidb.operator.pd.PdEtcdClient;
import io.tidb.operator.pd.PumpClient;
import io.tidb.operator.pd.TicdcClient;
import io.tidb.operator.pd.TidbStatusClient;
import io.tidb.operator.pd.TiflashClient;
import io.tidb.operator.pd.TiproxyClient;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

  private static final Logger LOG = LoggerFactory.getLogger(ClusterApiFactory.class);

  private final ComponentUrls config;
  private final ComponentHttp http;
  private final TidbStatusClient tidb;
  private final ClusterTransports transports;
  private final TicdcClient ticdc;
  private final TiproxyClient tiproxy;
  private final PumpClient pump;
  private final TiflashClient tiflash;

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
    this.tiflash = new TiflashClient(http, config.timeout());
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
    Function<String, URI> pdMemberUrl = member ->
        config.pdMemberUrl(pdOwner.namespace(), pdOwner.name(), pdOwner.clusterDomain(), member);
    Function<String, URI> tidbStatusUrl = pod -> config.tidbStatusUrl(namespace, name, domain, pod);
    Function<String, URI> ticdcUrl = pod -> config.ticdcUrl(namespace, name, domain, pod);
    Function<String, URI> tiproxyUrl = pod -> config.tiproxyUrl(namespace, name, domain, pod);
    Function<String, URI> pumpUrl = pod -> config.pumpUrl(namespace, name, domain, pod);
    Function<String, URI> tiflashUrl = pod -> config.tiflashUrl(namespace, name, domain, pod);
    if (!MemberPods.tlsCluster(tc)) {
      PdRead read = pdRead(tc, Optional.empty());
      return new HttpClusterApi(
          new PdClient(read.url(), read.http(), config.timeout()), tidb, tidbStatusUrl,
          pdMemberUrl, ticdc, ticdcUrl, new HttpClusterApi.Proxy(tiproxy, tiproxyUrl),
          new HttpClusterApi.Binlog(new PdEtcdClient(read.url(), read.http(), config.timeout()),
              pod -> pump, pumpUrl),
          new HttpClusterApi.Flash(tiflash, tiflashUrl),
          read.through());
    }
    ClusterTransports.Transport tls = tlsTransport(tc);
    PdRead read = pdRead(tc, Optional.of(tls));
    return new HttpClusterApi(
        new PdClient(read.url(), read.http(), config.timeout()),
        new TidbStatusClient(tls.tidb(), config.timeout()),
        pod -> https(tidbStatusUrl.apply(pod)),
        member -> https(pdMemberUrl.apply(member)),
        new TicdcClient(tls.ticdc(), config.timeout()),
        pod -> https(ticdcUrl.apply(pod)),
        new HttpClusterApi.Proxy(new TiproxyClient(tls.tiproxy(), config.timeout()),
            pod -> https(tiproxyUrl.apply(pod))),
        new HttpClusterApi.Binlog(
            new PdEtcdClient(read.url(), read.http(), config.timeout()),
            pod -> new PumpClient(tls.pump(pod), config.timeout()),
            pod -> https(pumpUrl.apply(pod))),
        new HttpClusterApi.Flash(new TiflashClient(tls.tiflash(), config.timeout()),
            pod -> https(tiflashUrl.apply(pod))),
        read.through());
  }

  /**
   * The mutual-TLS transport of a TLS cluster: its client certificate, PD's certificate checked
   * for the name of the Service the operator reads.
   */
  private ClusterTransports.Transport tlsTransport(TidbCluster tc) {
    String namespace = tc.getMetadata().getNamespace();
    String name = tc.getMetadata().getName();
    PdOwner pdOwner = PdOwner.of(tc);
    return transports.forCluster(namespace, name,
        ServerNames.of(name, namespace, tc.getSpec().getClusterDomain())
            .withPd(PdOwner.readsPeerService(tc)
                ? ComponentHosts.pdPeerService(
                    pdOwner.name(), pdOwner.namespace(), pdOwner.clusterDomain())
                : ComponentHosts.pdService(
                    pdOwner.name(), pdOwner.namespace(), pdOwner.clusterDomain())));
  }

  /**
   * Where the operator reads the PD of {@code tc}'s {@link PdOwner}: its Service (the headless
   * one across Kubernetes clusters), or a peer member when the Service does not answer (see
   * {@link #pdRead(PdRead, List, Function)}); over {@code tls} when given.
   */
  private PdRead pdRead(TidbCluster tc, Optional<ClusterTransports.Transport> tls) {
    PdOwner pdOwner = PdOwner.of(tc);
    URI pdUrl = PdOwner.readsPeerService(tc)
        ? config.pdPeerUrl(pdOwner.namespace(), pdOwner.name(), pdOwner.clusterDomain())
        : config.pdUrl(pdOwner.namespace(), pdOwner.name(), pdOwner.clusterDomain());
    List<PdPeerEndpoints.Endpoint> peers = PdPeerEndpoints.of(
        tc.getStatus() == null || tc.getStatus().getPd() == null ? null
            : tc.getStatus().getPd().getPeerMembers(), config);
    if (tls.isEmpty()) {
      return pdRead(new PdRead(pdUrl, http, Optional.empty()), peers,
          peer -> new PdRead(peer.url(), http, readThrough(peer, peer.url())));
    }
    String namespace = tc.getMetadata().getNamespace();
    String name = tc.getMetadata().getName();
    return pdRead(new PdRead(https(pdUrl), tls.get().pd(), Optional.empty()), peers,
        peer -> new PdRead(https(peer.url()), transports.pdPeer(namespace, name, peer.host()),
            readThrough(peer, https(peer.url()))));
  }

  /** The PD URL the operator reads, its client, and, when it is a peer member, which one. */
  private record PdRead(URI url, ComponentHttp http, Optional<String> through) {}

  /**
   * The PD Service's read while it answers {@code GET health}; when it does not and the cluster
   * has PD members of other TidbClusters ({@code status.pd.peerMembers}), the first of them that
   * answers, as upstream's PD control does; the Service's again when none answers (its error is
   * the one the status shows). Without peers, no probe is made.
   */
  private PdRead pdRead(
      PdRead service, List<PdPeerEndpoints.Endpoint> peers,
      Function<PdPeerEndpoints.Endpoint, PdRead> peerRead) {
    if (peers.isEmpty() || answers(service)) {
      return service;
    }
    for (PdPeerEndpoints.Endpoint peer : peers) {
      PdRead read = peerRead.apply(peer);
      if (answers(read)) {
        LOG.info("event=pd_peer_fallback pdService={} member={} url={}", service.url(),
            peer.member(), read.url());
        return read;
      }
    }
    return service;
  }

  private boolean answers(PdRead read) {
    try {
      new PdClient(read.url(), read.http(), config.timeout()).health();
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static Optional<String> readThrough(PdPeerEndpoints.Endpoint peer, URI url) {
    return Optional.of("PD member " + peer.member() + " of status.pd.peerMembers at " + url
        + " (the PD Service did not answer)");
  }

  /**
   * The etcd API that the PD of the cluster's {@link PdOwner} embeds (TiDB Dashboard's topology
   * keys), read as {@link #forCluster} reads PD: through the PD Service, or a peer member when the
   * Service does not answer; plain, or mutual TLS for a TLS cluster.
   *
   * @throws io.tidb.operator.controller.tidbcluster.tls.ClusterTlsUnavailableException as {@link
   *     #forCluster}
   */
  public PdEtcdClient pdEtcd(TidbCluster tc) {
    PdRead read = MemberPods.tlsCluster(tc)
        ? pdRead(tc, Optional.of(tlsTransport(tc)))
        : pdRead(tc, Optional.empty());
    return new PdEtcdClient(read.url(), read.http(), config.timeout());
  }

  /** The URL with {@code https} for {@code http}: a TLS cluster is never called in plain text. */
  static URI https(URI url) {
    return "http".equals(url.getScheme())
        ? URI.create("https" + url.toString().substring("http".length()))
        : url;
  }
}
