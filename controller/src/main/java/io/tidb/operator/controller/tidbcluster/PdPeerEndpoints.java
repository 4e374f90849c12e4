package io.tidb.operator.controller.tidbcluster;

import io.tidb.operator.api.v1alpha1.cluster.PdMember;
import io.tidb.operator.controller.config.ComponentUrls;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the operator reads PD when the cluster's PD Service does not answer: the PD members of
 * other TidbClusters (or other Kubernetes clusters) in the same PD cluster, {@code
 * status.pd.peerMembers}, one by one, as upstream's PD control falls back to them.
 *
 * <p>A member's client URL of the form {@code <scheme>://<member>.<tc>-pd-peer.<ns>.svc[.<domain>]
 * [:port]} is turned into the configured PD member URL of that cluster ({@link
 * ComponentUrls#pdMemberUrl}; with the default template, the client URL itself); any other client
 * URL (an external PD of {@code spec.pdAddresses}) is used as PD reported it.
 */
public final class PdPeerEndpoints {

  /** {@code <member>.<tc>-pd-peer.<ns>.svc} and an optional cluster domain, host part only. */
  private static final Pattern PEER_HOST =
      Pattern.compile("^([a-z0-9-]+)\\.([a-z0-9-]+)-pd-peer\\.([a-z0-9-]+)\\.svc(?:\\.(.+))?$");

  private PdPeerEndpoints() {}

  /**
   * One peer member to try.
   *
   * @param member the PD member's name
   * @param url the base URL the operator calls it at
   * @param host the member's own host name (its certificate must name it under TLS)
   */
  public record Endpoint(String member, URI url, String host) {}

  /**
   * The healthy-or-not peer members with a client URL, by name (upstream tries them in its map's
   * order; by name the order is repeatable). Health is not a filter: the status may be stale
   * exactly because PD did not answer.
   */
  public static List<Endpoint> of(Map<String, PdMember> peers, ComponentUrls urls) {
    List<Endpoint> endpoints = new ArrayList<>();
    if (peers == null) {
      return endpoints;
    }
    for (PdMember m : new TreeMap<>(peers).values()) {
      String clientUrl = m.getClientURL();
      if (clientUrl == null || clientUrl.isBlank()) {
        continue;
      }
      URI reported;
      try {
        reported = URI.create(clientUrl.trim());
      } catch (IllegalArgumentException e) {
        continue;
      }
      if (reported.getHost() == null) {
        continue;
      }
      endpoints.add(new Endpoint(m.getName(), url(reported, urls), reported.getHost()));
    }
    return endpoints;
  }

  private static URI url(URI reported, ComponentUrls urls) {
    Optional<Matcher> peer = Optional.of(PEER_HOST.matcher(reported.getHost()))
        .filter(Matcher::matches);
    if (peer.isEmpty()) {
      return strip(reported);
    }
    Matcher m = peer.get();
    return urls.pdMemberUrl(m.group(3), m.group(2), m.group(4), m.group(1));
  }

  private static URI strip(URI u) {
    String s = u.toString();
    return URI.create(s.endsWith("/") ? s.substring(0, s.length() - 1) : s);
  }
}
