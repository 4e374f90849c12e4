package io.tidb.operator.controller.tidbcluster.discovery;

import io.tidb.operator.pd.ComponentHttp;
import io.tidb.operator.pd.PdClient;
import io.tidb.operator.pd.PdMemberInfo;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Discovery's PD member list: from the first of the cluster's {@link ClusterView#pdSources} that
 * answers, as upstream's discovery tries its own PD, the referenced cluster's and then each peer
 * member. With {@code --pd-url} only that URL is asked. When none answers, the error names every
 * place asked and why it failed.
 */
final class PdMembersReader implements DiscoveryService.MembersReader {

  private final Optional<ClusterView.PdSource> override;
  private final Function<String, ComponentHttp> httpForHost;
  private final Duration timeout;

  /**
   * @param override the {@code --pd-url} source, asked instead of the cluster's when present
   * @param httpForHost the client to reach a PD whose certificate must name the given host
   */
  PdMembersReader(Optional<ClusterView.PdSource> override, Function<String, ComponentHttp> httpForHost,
      Duration timeout) {
    this.override = override;
    this.httpForHost = httpForHost;
    this.timeout = timeout;
  }

  /** The {@code --pd-url} source: that URL, its certificate checked for {@code host}. */
  static ClusterView.PdSource override(URI url, String host) {
    return new ClusterView.PdSource(url, host, "--pd-url");
  }

  @Override
  public List<PdMemberInfo> members(ClusterView cluster) throws DiscoveryException {
    List<ClusterView.PdSource> sources = override.map(List::of).orElse(cluster.pdSources());
    if (sources.isEmpty()) {
      throw DiscoveryException.unavailable("no PD to ask: the cluster has no PD of its own, no "
          + "spec.cluster and no status.pd.peerMembers", null);
    }
    List<String> failures = new ArrayList<>();
    RuntimeException last = null;
    for (ClusterView.PdSource source : sources) {
      try {
        return new PdClient(source.url(), httpForHost.apply(source.host()), timeout)
            .members().members();
      } catch (RuntimeException e) {
        last = e;
        failures.add(source.what() + " at " + source.url() + ": " + e.getMessage());
      }
    }
    throw DiscoveryException.unavailable(String.join("; ", failures), last);
  }
}
