package io.tidb.operator.controller.tidbcluster.discovery;

import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;
import java.util.ArrayList;
import java.util.List;

/**
 * Answers {@code /verify/<pd url>}: the PD endpoints a component started with {@code pd url} should
 * use. That is the URL itself followed by the client URLs of the healthy PD members of peer
 * clusters, in the same form (with a scheme only if the asked URL had one). A heterogeneous cluster
 * without PD of its own is answered the referenced cluster's PD peer Service instead, with the
 * asked URL's scheme and port, as upstream's discovery does.
 */
public final class VerifyRules {
  private VerifyRules() {}

  public static String endpoints(String pdUrl, ClusterView cluster) {
    String asked = pdUrl.strip();
    boolean withScheme = asked.contains("://");
    if (!cluster.referencedPdPeer().isEmpty()) {
      String scheme = withScheme ? asked.substring(0, asked.indexOf("://") + 3) : "";
      String hostPort = withScheme ? asked.substring(scheme.length()) : asked;
      int colon = hostPort.lastIndexOf(':');
      String port = colon < 0 ? String.valueOf(ClusterAddresses.PD_CLIENT_PORT) : hostPort.substring(colon + 1);
      return scheme + cluster.referencedPdPeer() + ":" + port;
    }
    List<String> endpoints = new ArrayList<>();
    endpoints.add(asked);
    for (ClusterView.PeerMember m : cluster.peerMembers()) {
      if (!m.health() || m.clientUrl() == null || m.clientUrl().isEmpty()) {
        continue;
      }
      String url = m.clientUrl();
      int scheme = url.indexOf("://");
      endpoints.add(withScheme || scheme < 0 ? url : url.substring(scheme + 3));
    }
    return String.join(",", endpoints);
  }
}
