package io.tidb.operator.controller.steps;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.MemberSpec;
import io.tidb.operator.api.v1alpha1.cluster.PdStatus;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.controller.apply.ApplyOutcome;
import io.tidb.operator.controller.desired.Component;
import io.tidb.operator.controller.desired.PdObjects;
import io.tidb.operator.controller.desired.StatefulSetPlan;
import io.tidb.operator.controller.pipeline.ClusterContext;
import io.tidb.operator.controller.pipeline.ClusterEndpoints;
import io.tidb.operator.controller.pipeline.StepResult;
import io.tidb.operator.controller.status.PdMembership;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PD: client and peer Services, ConfigMap, StatefulSet; status from PD's health, leader and
 * cluster id. Scales out one member per reconcile, as upstream does, so each new member joins an
 * etcd cluster that has settled.
 */
public final class PdStep extends MemberStep<PdStatus> {

  private static final Logger LOG = LoggerFactory.getLogger(PdStep.class);

  @Override
  protected Component component() {
    return Component.PD;
  }

  @Override
  protected MemberSpec spec(TidbCluster tc) {
    return tc.getSpec().getPd();
  }

  @Override
  protected String displayName() {
    return "PD";
  }

  @Override
  protected List<Service> services(TidbCluster tc) {
    return List.of(PdObjects.clientService(tc), PdObjects.peerService(tc));
  }

  @Override
  protected ConfigMap configMap(TidbCluster tc, Optional<String> inUse) {
    return PdObjects.configMap(tc, inUse);
  }

  @Override
  protected StatefulSet statefulSet(TidbCluster tc, ConfigMap cm, StatefulSetPlan plan) {
    return PdObjects.statefulSet(tc, cm, plan);
  }

  @Override
  protected int scaleOutStep(TidbCluster tc) {
    return 1;
  }

  @Override
  protected PdStatus statusOf(TidbClusterStatus status) {
    if (status.getPd() == null) {
      status.setPd(new PdStatus());
    }
    return status.getPd();
  }

  @Override
  protected void observeMembers(ClusterContext ctx, PdStatus status, Optional<StatefulSet> sts) {
    if (sts.isEmpty()) {
      status.setSynced(false);
      return;
    }
    ClusterEndpoints pd = ctx.endpoints();
    try {
      var health = pd.pdHealth();
      Optional<String> leader = pd.pdLeader();
      String clusterId = pd.clusterId();
      PdMembership.record(status, ctx.name(), ctx.namespace(), health, leader, ctx.now());
      ctx.status().setClusterID(clusterId);
      status.setSynced(true);
    } catch (IOException e) {
      LOG.info(
          "pd not reachable namespace={} cluster={} error=\"{}\"",
          ctx.namespace(),
          ctx.name(),
          e.getMessage());
      status.setSynced(false);
    }
  }

  /** A new PD StatefulSet needs its pods running before anything else can use PD. */
  @Override
  protected StepResult afterApply(
      ClusterContext ctx, Optional<StatefulSet> before, ApplyOutcome outcome) {
    return before.isEmpty()
        ? StepResult.converging("waiting for PD cluster running")
        : StepResult.CONTINUE;
  }
}
