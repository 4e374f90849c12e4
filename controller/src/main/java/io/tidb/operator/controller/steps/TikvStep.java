package io.tidb.operator.controller.steps;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.MemberSpec;
import io.tidb.operator.api.v1alpha1.cluster.ScalePolicy;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.api.v1alpha1.cluster.TikvStatus;
import io.tidb.operator.controller.desired.Component;
import io.tidb.operator.controller.desired.StatefulSetPlan;
import io.tidb.operator.controller.desired.TikvObjects;
import io.tidb.operator.controller.pipeline.ClusterContext;
import io.tidb.operator.controller.pipeline.ClusterEndpoints;
import io.tidb.operator.controller.status.PdMembership;
import io.tidb.operator.controller.status.StoreMembership;
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

  private static final Logger LOG = LoggerFactory.getLogger(TikvStep.class);

  @Override
  protected Component component() {
    return Component.TIKV;
  }

  @Override
  protected MemberSpec spec(TidbCluster tc) {
    return tc.getSpec().getTikv();
  }

  @Override
  protected String displayName() {
    return "TiKV";
  }

  @Override
  public Optional<String> waitingFor(ClusterContext ctx) {
    if (ctx.cluster().getSpec().getPd() == null) {
      return Optional.empty();
    }
    int pdReplicas = ctx.observed(Component.PD).map(o -> o.desiredReplicas()).orElse(0);
    return PdMembership.quorum(ctx.status().getPd(), pdReplicas)
        ? Optional.empty()
        : Optional.of("waiting for the PD cluster to be available (a majority of PD members healthy)");
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
    ClusterEndpoints pd = ctx.endpoints();
    try {
      Optional<ClusterEndpoints.Stores> stores = pd.stores();
      status.setBootStrapped(stores.isPresent());
      ClusterEndpoints.Stores lists = stores.orElse(new ClusterEndpoints.Stores(List.of(), List.of()));
      StoreMembership.record(
          status,
          ctx.name(),
          ctx.namespace(),
          Component.TIKV.label(),
          lists.live(),
          lists.tombstones(),
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
