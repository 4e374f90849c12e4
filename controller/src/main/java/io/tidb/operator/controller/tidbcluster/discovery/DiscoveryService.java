package io.tidb.operator.controller.tidbcluster.discovery;

import io.tidb.operator.pd.PdMemberInfo;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The discovery service of one TidbCluster: answers a starting PD pod's {@code /new/} request with
 * {@code --initial-cluster=...} or {@code --join=...} (see {@link BootstrapRules}) and a component's
 * {@code /verify/} request with PD endpoints (see {@link VerifyRules}).
 *
 * <p>It keeps the bootstrap registrations in memory; requests are serialized, as the count must
 * be. The TidbCluster is read afresh for every request through {@link ClusterReader}; PD's members
 * through {@link MembersReader}.
 */
public final class DiscoveryService {
  private static final Logger LOG = LoggerFactory.getLogger(DiscoveryService.class);

  /** Reads the TidbCluster this discovery serves. */
  @FunctionalInterface
  public interface ClusterReader {
    /** The current view; throws when the cluster cannot be read. */
    ClusterView read() throws Exception;
  }

  /** Reads PD's member list ({@code GET /pd/api/v1/members}). */
  @FunctionalInterface
  public interface MembersReader {
    List<PdMemberInfo> members(ClusterView cluster) throws Exception;
  }

  private final ClusterReader clusters;
  private final MembersReader pd;
  private Registrations registrations;

  public DiscoveryService(ClusterReader clusters, MembersReader pd) {
    this.clusters = clusters;
    this.pd = pd;
  }

  /**
   * Answers {@code /new/<advertisePeerUrl>}.
   *
   * @return the start flag for the pod
   * @throws DiscoveryException with the HTTP status to answer
   */
  public synchronized String discover(String advertisePeerUrl) {
    PeerUrl peer = PeerUrl.parse(advertisePeerUrl);
    ClusterView cluster = readCluster();
    BootstrapRules.Decision decision =
        BootstrapRules.decide(Optional.ofNullable(registrations), cluster, peer);
    registrations = decision.next();
    if (decision instanceof BootstrapRules.Answer answer) {
      LOG.info("event=pd_start_args pod={} cluster={}/{} resourceVersion={} args={}", peer.pod(),
          cluster.namespace(), cluster.name(), cluster.resourceVersion(), answer.argument());
      return answer.argument();
    }
    List<PdMemberInfo> members;
    try {
      members = pd.members(cluster);
    } catch (Exception e) {
      LOG.info("event=pd_members_unavailable pod={} cluster={}/{} registered={} desired={} error=\"{}\"",
          peer.pod(), cluster.namespace(), cluster.name(), registrations.pods().size(),
          cluster.desiredPdReplicas(), describe(e));
      throw DiscoveryException.unavailable(
          "cannot list PD members of cluster " + cluster.namespace() + "/" + cluster.name() + ": "
              + describe(e), e);
    }
    String argument = BootstrapRules.joinArgument(members, cluster, peer);
    registrations = registrations.without(peer.pod());
    LOG.info("event=pd_start_args pod={} cluster={}/{} resourceVersion={} args={}", peer.pod(),
        cluster.namespace(), cluster.name(), cluster.resourceVersion(), argument);
    return argument;
  }

  /**
   * Answers {@code /verify/<pdUrl>}.
   *
   * @throws DiscoveryException (503) when the cluster cannot be read; the caller retries
   */
  public String verify(String pdUrl) {
    return VerifyRules.endpoints(pdUrl, readCluster());
  }

  /** The pods currently counted towards bootstrap, for diagnostics and tests. */
  public synchronized Optional<Registrations> registrations() {
    return Optional.ofNullable(registrations);
  }

  private ClusterView readCluster() {
    try {
      return clusters.read();
    } catch (DiscoveryException e) {
      throw e;
    } catch (Exception e) {
      throw DiscoveryException.unavailable("cannot read the TidbCluster: " + describe(e), e);
    }
  }

  private static String describe(Exception e) {
    return e.getMessage() != null ? e.getMessage() : e.toString();
  }
}
