package io.tidb.operator.controller.tidbcluster.discovery;

import java.util.ArrayList;
import java.util.List;

/**
 * Answers {@code /verify/<pd url>}: the PD endpoints a component started with {@code pd url} should
 * use. That is the URL itself followed by the client URLs of the healthy PD members of peer
 * clusters, in the same form (with a scheme only if the asked URL had one).
 */
public final class VerifyRules {
  private VerifyRules() {}

  public static String endpoints(String pdUrl, ClusterView cluster) {
    String asked = pdUrl.strip();
    boolean withScheme = asked.contains("://");
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
