package io.tidb.operator.controller.tidbcluster.discovery;

import io.tidb.operator.pd.PdMemberInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides how a starting PD pod joins the PD cluster. Pure functions; {@link DiscoveryService}
 * keeps the state and does the I/O.
 *
 * <p>The rule (upstream's): discovery counts, per TidbCluster resourceVersion, the PD pods that have
 * asked. The pod whose request brings the count to the desired PD replica count bootstraps a new
 * PD cluster with {@code --initial-cluster=<name>=<its peer URL>}. Every other pod gets
 * {@code --join=<client URLs of the members PD already has>}; until PD answers, that pod stays
 * counted, so when all desired pods have asked and PD is still absent, the last one bootstraps.
 * Any change to the TidbCluster (a new resourceVersion) starts the count again.
 */
public final class BootstrapRules {
  private BootstrapRules() {}

  /** What to do with one {@code /new/} request. */
  public sealed interface Decision {
    /** The registrations to keep after this decision. */
    Registrations next();
  }

  /**
   * Answer right away with {@code argument}.
   *
   * @param next registrations without the pod
   * @param argument the start flag for the pod
   */
  public record Answer(Registrations next, String argument) implements Decision {}

  /**
   * Ask PD for its members and answer with {@link #joinArgument}; on success drop the pod from
   * {@code next} ({@link Registrations#without}), on failure keep it counted.
   *
   * @param next registrations including the pod
   */
  public record AskPd(Registrations next) implements Decision {}

  /**
   * Registers the pod and decides.
   *
   * @param current the registrations so far, or empty if none
   * @param cluster the TidbCluster as read for this request
   * @param peer the asking pod's parsed peer URL
   * @throws DiscoveryException (400) when the pod does not belong to this cluster
   */
  public static Decision decide(Optional<Registrations> current, ClusterView cluster, PeerUrl peer) {
    checkBelongs(cluster, peer);
    Registrations regs = current
        .filter(r -> r.resourceVersion().equals(cluster.resourceVersion()))
        .orElseGet(() -> Registrations.empty(cluster.resourceVersion()))
        .with(peer.pod());
    if (regs.pods().size() == cluster.desiredPdReplicas() && !cluster.joinsOtherCluster()) {
      Registrations next = regs.without(peer.pod());
      if (!cluster.pdAddresses().isEmpty()) {
        return new Answer(next, "--join=" + String.join(",", cluster.pdAddresses()));
      }
      return new Answer(next,
          "--initial-cluster=" + memberName(cluster, peer) + "=" + cluster.scheme() + "://" + peer.hostPort());
    }
    return new AskPd(regs);
  }

  /**
   * {@code --join=<url>,<url>} from PD's member list ({@code GET /pd/api/v1/members}), leaving out the asking pod itself (its old
   * registration survives when only its data was lost, and PD refuses to join itself). Each URL is
   * the member's first client URL, or, for a member that never started, its peer URL with the
   * client port.
   *
   * @throws DiscoveryException (503) when no other member is left to join
   */
  public static String joinArgument(List<PdMemberInfo> members, ClusterView cluster, PeerUrl peer) {
    String self = memberName(cluster, peer);
    List<String> urls = new ArrayList<>();
    for (PdMemberInfo m : members) {
      if (m.name().equals(peer.pod()) || m.name().equals(self) || m.name().equals(peer.host())) {
        continue;
      }
      if (!m.clientUrls().isEmpty()) {
        urls.add(m.clientUrls().get(0));
      } else if (!m.peerUrls().isEmpty()) {
        urls.add(clientUrlFromPeerUrl(m.peerUrls().get(0)));
      }
    }
    if (urls.isEmpty()) {
      throw DiscoveryException.unavailable(
          "PD of cluster " + cluster.namespace() + "/" + cluster.name() + " has no member other than "
              + peer.pod() + " to join yet", null);
    }
    return "--join=" + String.join(",", urls);
  }

  /** The name a PD pod registers under: its pod name, or its full host when a cluster domain is set. */
  static String memberName(ClusterView cluster, PeerUrl peer) {
    return cluster.clusterDomain().isEmpty() ? peer.pod() : peer.host();
  }

  private static String clientUrlFromPeerUrl(String peerUrl) {
    int colon = peerUrl.lastIndexOf(':');
    int slashes = peerUrl.indexOf("://");
    if (colon > slashes + 2) {
      return peerUrl.substring(0, colon) + ":2379";
    }
    return peerUrl;
  }

  private static void checkBelongs(ClusterView cluster, PeerUrl peer) {
    String expectedService = cluster.name() + "-pd-peer";
    if (!peer.namespace().equals(cluster.namespace()) || !peer.peerService().equals(expectedService)) {
      throw DiscoveryException.badRequest(
          "peer " + peer.hostPort() + " is not a PD pod of cluster " + cluster.namespace() + "/"
              + cluster.name() + "; expected <pod>." + expectedService + "." + cluster.namespace()
              + ".svc:<port>");
    }
  }
}
