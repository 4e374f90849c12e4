package io.tidb.operator.controller.tidbcluster.discovery;

import io.tidb.operator.controller.tidbcluster.discovery.DmBootstrapRules.DmClusterView;
import io.tidb.operator.controller.tidbcluster.discovery.DmBootstrapRules.DmPeer;
import io.tidb.operator.dmapi.DmMasterInfo;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The discovery service of one DMCluster: answers a starting dm-master pod's {@code
 * /new/<peer>/dm} request with {@code --initial-cluster=...} or {@code --join=...} (see {@link
 * DmBootstrapRules}). Registrations are kept in memory; requests are serialized. The DMCluster is
 * read afresh for every request, the members from the dm-master API.
 */
public final class DmDiscoveryService {
  private static final Logger LOG = LoggerFactory.getLogger(DmDiscoveryService.class);

  /** Reads the DMCluster this discovery serves. */
  @FunctionalInterface
  public interface ClusterReader {
    DmClusterView read() throws Exception;
  }

  /** Lists dm-master's members ({@code GET /apis/v1alpha1/members?master=true}). */
  @FunctionalInterface
  public interface MastersReader {
    List<DmMasterInfo> masters(DmClusterView cluster) throws Exception;
  }

  private final String namespace;
  private final ClusterReader clusters;
  private final MastersReader masters;
  private Registrations registrations;

  public DmDiscoveryService(String namespace, ClusterReader clusters, MastersReader masters) {
    this.namespace = namespace;
    this.clusters = clusters;
    this.masters = masters;
  }

  /** @throws DiscoveryException with the HTTP status to answer */
  public synchronized String discover(String advertisePeerUrl) {
    DmPeer peer = DmPeer.parse(advertisePeerUrl, namespace);
    DmClusterView cluster;
    try {
      cluster = clusters.read();
    } catch (DiscoveryException e) {
      throw e;
    } catch (Exception e) {
      throw DiscoveryException.unavailable("cannot read the DMCluster: " + describe(e), e);
    }
    DmBootstrapRules.Decision decision = DmBootstrapRules.decide(Optional.ofNullable(registrations), cluster, peer);
    registrations = decision.next();
    String argument;
    if (decision instanceof DmBootstrapRules.Answer answer) {
      argument = answer.argument();
    } else {
      List<DmMasterInfo> members;
      try {
        members = masters.masters(cluster);
      } catch (Exception e) {
        LOG.info("event=dm_masters_unavailable pod={} cluster={}/{} registered={} desired={} error=\"{}\"",
            peer.pod(), cluster.namespace(), cluster.name(), registrations.pods().size(),
            cluster.desiredMasterReplicas(), describe(e));
        throw DiscoveryException.unavailable("cannot list the dm-master members of DMCluster "
            + cluster.namespace() + "/" + cluster.name() + ": " + describe(e), e);
      }
      argument = DmBootstrapRules.joinArgument(members, peer);
      registrations = registrations.without(peer.pod());
    }
    LOG.info("event=dm_master_start_args pod={} cluster={}/{} resourceVersion={} args={}", peer.pod(),
        cluster.namespace(), cluster.name(), cluster.resourceVersion(), argument);
    return argument;
  }

  /** The pods currently counted towards bootstrap, for diagnostics and tests. */
  public synchronized Optional<Registrations> registrations() {
    return Optional.ofNullable(registrations);
  }

  private static String describe(Exception e) {
    return e.getMessage() != null ? e.getMessage() : e.toString();
  }
}
