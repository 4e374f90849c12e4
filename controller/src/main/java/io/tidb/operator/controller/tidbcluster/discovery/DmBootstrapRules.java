package io.tidb.operator.controller.tidbcluster.discovery;

import io.tidb.operator.dmapi.DmMasterInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides how a starting dm-master pod without data joins its DM cluster: upstream's {@code
 * DiscoverDM}. Pure; {@link DmDiscoveryService} keeps the state and does the I/O.
 *
 * <p>Discovery counts, per DMCluster resourceVersion, the dm-master pods that have asked. The pod
 * whose request brings the count to the dm-master StatefulSet's desired size bootstraps the
 * cluster with {@code --initial-cluster=<pod>=<scheme>://<its peer address>}; every other pod
 * gets {@code --join=<client URLs of the members dm-master already has>} (each member's first
 * peer URL with the client port 8261), leaving out the pod itself. Until dm-master answers, the
 * pod stays counted. A new resourceVersion starts the count again.
 */
public final class DmBootstrapRules {

  /** dm-master's peer port (between members) and client port. */
  public static final String PEER_PORT = ":8291";
  public static final String CLIENT_PORT = ":8261";

  private DmBootstrapRules() {}

  /**
   * What one {@code /new/<peer>/dm} request sees of its DMCluster.
   *
   * @param desiredMasterReplicas {@code spec.master.replicas} plus one per failed-over member
   *     whose member was deleted (the replacement the controller adds)
   * @param scheme {@code http}, or {@code https} with {@code tlsCluster}
   */
  public record DmClusterView(String name, String namespace, String resourceVersion,
      int desiredMasterReplicas, String scheme) {}

  /**
   * A dm-master pod's advertised peer address as its start script sends it: {@code
   * <pod>.<dc>-dm-master-peer:8291}, optionally followed by {@code .<namespace>[.svc...]}.
   */
  public record DmPeer(String address, String pod, String cluster) {

    static final String PEER_SERVICE_SUFFIX = "-dm-master-peer";

    /** @throws DiscoveryException (400) when the address is not a dm-master peer address */
    public static DmPeer parse(String text, String namespace) {
      String s = text.strip();
      int scheme = s.indexOf("://");
      if (scheme >= 0) {
        s = s.substring(scheme + 3);
      }
      int colon = s.lastIndexOf(':');
      String[] labels = colon <= 0 ? new String[0] : s.substring(0, colon).split("\\.");
      boolean ok = labels.length >= 2 && !labels[0].isEmpty()
          && labels[1].endsWith(PEER_SERVICE_SUFFIX) && labels[1].length() > PEER_SERVICE_SUFFIX.length()
          && (labels.length == 2 || labels[2].equals(namespace))
          && s.substring(colon + 1).chars().allMatch(Character::isDigit) && colon < s.length() - 1;
      if (!ok) {
        throw DiscoveryException.badRequest("dm advertise peer address \"" + text.strip()
            + "\" is malformed; expected <pod>.<dc>" + PEER_SERVICE_SUFFIX + "[." + namespace + "...]:<port>");
      }
      String cluster = labels[1].substring(0, labels[1].length() - PEER_SERVICE_SUFFIX.length());
      return new DmPeer(s, labels[0], cluster);
    }
  }

  /** What to do with one request. */
  public sealed interface Decision {
    Registrations next();
  }

  /** Answer with {@code argument} right away. */
  public record Answer(Registrations next, String argument) implements Decision {}

  /** Ask dm-master for its members and answer with {@link #joinArgument}. */
  public record AskMasters(Registrations next) implements Decision {}

  /** @throws DiscoveryException (400) when the pod belongs to another DMCluster */
  public static Decision decide(Optional<Registrations> current, DmClusterView cluster, DmPeer peer) {
    if (!peer.cluster().equals(cluster.name())) {
      throw DiscoveryException.badRequest("dm-master " + peer.address() + " belongs to DMCluster "
          + peer.cluster() + ", this discovery serves DMCluster " + cluster.namespace() + "/" + cluster.name());
    }
    Registrations regs = current
        .filter(r -> r.resourceVersion().equals(cluster.resourceVersion()))
        .orElseGet(() -> Registrations.empty(cluster.resourceVersion()))
        .with(peer.pod());
    if (regs.pods().size() == cluster.desiredMasterReplicas()) {
      return new Answer(regs.without(peer.pod()),
          "--initial-cluster=" + peer.pod() + "=" + cluster.scheme() + "://" + peer.address());
    }
    return new AskMasters(regs);
  }

  /**
   * {@code --join=<url>,...}: every member but the pod itself (its old registration survives when
   * only its data was lost, and dm-master refuses to join itself), its first peer URL with the
   * client port.
   *
   * @throws DiscoveryException (503, the script retries) when no other member is known yet;
   *     upstream answers an empty {@code --join=} then
   */
  public static String joinArgument(List<DmMasterInfo> masters, DmPeer peer) {
    List<String> urls = new ArrayList<>();
    for (DmMasterInfo m : masters) {
      if (m.name().equals(peer.pod()) || m.peerUrls().isEmpty()) {
        continue;
      }
      urls.add(m.peerUrls().get(0).replace(PEER_PORT, CLIENT_PORT));
    }
    if (urls.isEmpty()) {
      throw DiscoveryException.unavailable("dm-master of DMCluster " + peer.cluster()
          + " has no member other than " + peer.pod() + " to join yet", null);
    }
    return "--join=" + String.join(",", urls);
  }
}
