package io.tidb.operator.controller.tidbcluster.tikv;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.MemberSpec;
import io.tidb.operator.api.v1alpha1.cluster.ScalePolicy;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.api.v1alpha1.cluster.TikvStatus;
import io.tidb.operator.controller.tidbcluster.member.MemberStep;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import io.tidb.operator.controller.tidbcluster.pipeline.Prerequisite;
import io.tidb.operator.controller.tidbcluster.pipeline.ReadyCondition;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TiKV: waits for PD quorum; then the peer Service, ConfigMap and StatefulSet; status from PD's
 * store lists. Scales out {@code spec.tikv.scalePolicy.scaleOutParallelism} stores per reconcile
 * (default 1).
 */
public final class TikvStep extends MemberStep<TikvStatus> {

  /** Upstream's reason when a TiKV store is not Up. */
  public static final String TIKV_STORE_NOT_UP = "TiKVStoreNotUp";

  private static final Logger LOG = LoggerFactory.getLogger(TikvStep.class);

  /** @param pdAvailable what PD must offer before TiKV starts (PD's quorum) */
  public TikvStep(Prerequisite pdAvailable) {
    super(pdAvailable);
  }

  @Override
  protected Component component() {
    return TikvObjects.COMPONENT;
  }

  @Override
  protected MemberSpec spec(TidbCluster tc) {
    return tc.getSpec().getTikv();
  }

  @Override
  protected String displayName() {
    return "TiKV";
  }

  /**
   * What TiDB waits for: at least one of this cluster's TiKV stores Up. Met at once when the
   * cluster has no TiKV of its own.
   */
  public Prerequisite anyStoreUp() {
    return ctx ->
        !enabled(ctx.cluster()) || StoreMembership.anyUp(ctx.status().getTikv())
            ? Optional.empty()
            : Optional.of("waiting for the TiKV cluster to be available (at least one store Up)");
  }

  @Override
  public ReadyCondition.ReadinessCheck readiness() {
    return ReadyCondition.requiring(
        (status, desired) -> StoreMembership.ready(status.getTikv(), desired),
        TIKV_STORE_NOT_UP,
        "TiKV store(s) are not up");
  }

  /** TiKV's stores among PD's: every store not labelled {@code engine=tiflash}. */
  static boolean isTikv(ClusterApi.StoreView store) {
    return !"tiflash".equals(store.labels().get("engine"));
  }

  @Override
  protected List<Service> services(TidbCluster tc) {
    return List.of(TikvObjects.peerService(tc));
  }

  @Override
  protected ConfigMap configMap(TidbCluster tc, Optional<String> inUse) {
    return TikvObjects.configMap(tc, inUse);
  }

  @Override
  protected StatefulSet statefulSet(TidbCluster tc, ConfigMap cm, StatefulSetPlan plan) {
    return TikvObjects.statefulSet(tc, cm, plan);
  }

  @Override
  protected int scaleOutStep(TidbCluster tc) {
    ScalePolicy policy = tc.getSpec().getTikv().getScalePolicy();
    return policy == null || policy.getScaleOutParallelism() == null
        ? 1
        : policy.getScaleOutParallelism();
  }

  @Override
  protected TikvStatus statusOf(TidbClusterStatus status) {
    if (status.getTikv() == null) {
      status.setTikv(new TikvStatus());
    }
    return status.getTikv();
  }

  @Override
  protected void observeMembers(ClusterContext ctx, TikvStatus status, Optional<StatefulSet> sts) {
    ClusterApi pd = ctx.api();
    try {
      Optional<ClusterApi.Stores> stores = pd.stores();
      status.setBootStrapped(stores.isPresent());
      ClusterApi.Stores lists = stores.orElse(new ClusterApi.Stores(List.of(), List.of()));
      StoreMembership.record(
          status,
          ctx.name(),
          ctx.namespace(),
          TikvObjects.COMPONENT.label(),
          lists.live().stream().filter(TikvStep::isTikv).toList(),
          lists.tombstones().stream().filter(TikvStep::isTikv).toList(),
          ctx.now());
      status.setSynced(true);
    } catch (IOException e) {
      LOG.info(
          "pd stores not readable namespace={} cluster={} error=\"{}\"",
          ctx.namespace(),
          ctx.name(),
          e.getMessage());
      status.setSynced(false);
    }
  }
}
