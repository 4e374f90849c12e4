package io.tidb.operator.controller.config;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Everything the controller process is configured with, resolved from flags and environment.
 *
 * @param namespaces namespaces to watch; empty means all namespaces
 * @param workers concurrent reconciles
 * @param resync the heartbeat: every {@code TidbCluster} is reconciled at least this often, which
 *     is how status keeps following PD (upstream: 30 s)
 * @param convergingRequeue how soon a reconcile that stopped on an unmet prerequisite runs again
 * @param leaderElection Lease-based leader election, when present
 * @param httpAddress where {@code /metrics}, {@code /healthz} and {@code /readyz} are served
 * @param endpoints how the controller reaches PD and TiDB
 * @param discoveryImage the image of the per-cluster discovery Deployment (this operator's image)
 * @param identity this replica's name (its pod name): the leader-election identity and the
 *     reporting instance of its Events
 * @param failover automatic failover of PD, TiKV and TiDB members
 * @param reconcileSpacing the shortest time between two reconciles of one resource: events that
 *     arrive sooner are handled together by the next reconcile ({@code ReconcileSpacing})
 */
public record ControllerSettings(
    Set<String> namespaces,
    int workers,
    Duration resync,
    Duration convergingRequeue,
    Optional<LeaderElection> leaderElection,
    InetSocketAddress httpAddress,
    ComponentUrls endpoints,
    String discoveryImage,
    String identity,
    FailoverSettings failover,
    Duration reconcileSpacing) {

  /** The default of {@link #reconcileSpacing}. */
  public static final Duration DEFAULT_RECONCILE_SPACING = Duration.ofSeconds(1);

  /** Settings with upstream's failover defaults and the default reconcile spacing. */
  public ControllerSettings(
      Set<String> namespaces,
      int workers,
      Duration resync,
      Duration convergingRequeue,
      Optional<LeaderElection> leaderElection,
      InetSocketAddress httpAddress,
      ComponentUrls endpoints,
      String discoveryImage,
      String identity) {
    this(
        namespaces,
        workers,
        resync,
        convergingRequeue,
        leaderElection,
        httpAddress,
        endpoints,
        discoveryImage,
        identity,
        FailoverSettings.DEFAULTS,
        DEFAULT_RECONCILE_SPACING);
  }

  public ControllerSettings {
    namespaces = Set.copyOf(namespaces);
    Objects.requireNonNull(resync, "resync");
    Objects.requireNonNull(convergingRequeue, "convergingRequeue");
    Objects.requireNonNull(leaderElection, "leaderElection");
    Objects.requireNonNull(httpAddress, "httpAddress");
    Objects.requireNonNull(endpoints, "endpoints");
    Objects.requireNonNull(discoveryImage, "discoveryImage");
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(failover, "failover");
    Objects.requireNonNull(reconcileSpacing, "reconcileSpacing");
  }

  public boolean watchAllNamespaces() {
    return namespaces.isEmpty();
  }

  /**
   * Leader election on a {@code coordination.k8s.io/v1} Lease.
   *
   * @param leaseName the Lease's name
   * @param leaseNamespace the Lease's namespace (the operator's own namespace)
   */
  public record LeaderElection(String leaseName, String leaseNamespace) {
    public LeaderElection {
      Objects.requireNonNull(leaseName, "leaseName");
      Objects.requireNonNull(leaseNamespace, "leaseNamespace");
    }
  }
}
