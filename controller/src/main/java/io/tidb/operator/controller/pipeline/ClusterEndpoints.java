package io.tidb.operator.controller.pipeline;

import io.tidb.operator.controller.status.PdMembership.MemberHealth;
import io.tidb.operator.controller.status.StoreMembership.StoreInfo;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * What the reconciler asks one cluster's PD and TiDB servers. Every call may fail with an {@link
 * IOException} (unreachable, timed out, or an unexpected answer); callers treat that as "not synced
 * yet", not as a reconcile error.
 */
public interface ClusterEndpoints {

  /** PD's {@code GET /pd/api/v1/health}. */
  List<MemberHealth> pdHealth() throws IOException;

  /** The PD leader's name ({@code GET /pd/api/v1/leader}); empty when PD has none. */
  Optional<String> pdLeader() throws IOException;

  /** The PD cluster id ({@code GET /pd/api/v1/cluster}), unsigned, in decimal. */
  String clusterId() throws IOException;

  /**
   * The stores PD knows ({@code GET /pd/api/v1/stores}) and the tombstones ({@code ?state=2});
   * empty when the cluster is not bootstrapped yet (no TiKV has joined).
   */
  Optional<Stores> stores() throws IOException;

  /** Whether the TiDB server in {@code pod} answers its status port with 200. */
  boolean tidbHealthy(String pod);

  /** PD's store lists. */
  record Stores(List<StoreInfo> live, List<StoreInfo> tombstones) {}
}
