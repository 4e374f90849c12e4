package io.tidb.operator.controller.tidbcluster.pd;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.MemberSpec;
import io.tidb.operator.api.v1alpha1.cluster.PdStatus;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.controller.runtime.ApplyOutcome;
import io.tidb.operator.controller.tidbcluster.member.MemberStep;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import io.tidb.operator.controller.tidbcluster.pipeline.Prerequisite;
import io.tidb.operator.controller.tidbcluster.pipeline.ReadyCondition;
import io.tidb.operator.controller.tidbcluster.pipeline.StepResult;
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

  /** Upstream's reason when PD is not healthy. */
  public static final String PD_UNHEALTHY = "PDUnhealthy";

  /** PD starts first: it waits for nothing. */
  public PdStep() {
    super(Prerequisite.NONE);
  }

  @Override
  protected Component component() {
    return ClusterAddresses.PD;
  }

  @Override
  public ReadyCondition.ReadinessCheck readiness() {
    return ReadyCondition.requiring(
        (status, desired) -> PdMembership.ready(status.getPd(), desired),
        PD_UNHEALTHY,
        "PD(s) are not healthy");
  }

  /**
   * What TiKV (and anything else that needs PD) waits for: a majority of the desired PD members
   * healthy. Met at once when the cluster has no PD of its own (it uses another cluster's).
   */
  public Prerequisite quorum() {
    return ctx -> {
      if (!enabled(ctx.cluster())) {
        return Optional.empty();
      }
      int desired = ctx.observed(component()).map(o -> o.desiredReplicas()).orElse(0);
      return PdMembership.quorum(ctx.status().getPd(), desired)
          ? Optional.empty()
          : Optional.of(
              "waiting for the PD cluster to be available (a majority of PD members healthy)");
    };
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
    ClusterApi pd = ctx.api();
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
