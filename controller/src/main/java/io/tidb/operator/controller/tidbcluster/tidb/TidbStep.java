package io.tidb.operator.controller.tidbcluster.tidb;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.MemberSpec;
import io.tidb.operator.api.v1alpha1.cluster.ScalePolicy;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.api.v1alpha1.cluster.TidbStatus;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.MemberStep;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import io.tidb.operator.controller.tidbcluster.member.Names;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import io.tidb.operator.controller.tidbcluster.pipeline.Prerequisite;
import io.tidb.operator.controller.tidbcluster.pipeline.ReadyCondition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * TiDB: waits for at least one Up TiKV store; then the peer and client Services, ConfigMap and
 * StatefulSet; each member's health from its status port.
 */
public final class TidbStep extends MemberStep<TidbStatus> {

  /** Upstream's reason when a TiDB server is not healthy. */
  public static final String TIDB_UNHEALTHY = "TiDBUnhealthy";

  /** @param tikvAvailable what TiKV must offer before TiDB starts (a store Up) */
  public TidbStep(Prerequisite tikvAvailable) {
    super(tikvAvailable);
  }

  @Override
  protected Component component() {
    return TidbObjects.COMPONENT;
  }

  @Override
  protected MemberSpec spec(TidbCluster tc) {
    return tc.getSpec().getTidb();
  }

  @Override
  protected String displayName() {
    return "TiDB";
  }

  @Override
  public ReadyCondition.ReadinessCheck readiness() {
    return ReadyCondition.requiring(
        (status, desired) -> TidbMembership.ready(status.getTidb(), desired),
        TIDB_UNHEALTHY,
        "TiDB(s) are not healthy");
  }

  @Override
  protected List<Service> services(TidbCluster tc) {
    List<Service> services = new ArrayList<>();
    services.add(TidbObjects.peerService(tc));
    TidbObjects.clientService(tc).ifPresent(services::add);
    return services;
  }

  @Override
  protected ConfigMap configMap(TidbCluster tc, Optional<String> inUse) {
    return TidbObjects.configMap(tc, inUse);
  }

  @Override
  protected StatefulSet statefulSet(TidbCluster tc, ConfigMap cm, StatefulSetPlan plan) {
    return TidbObjects.statefulSet(tc, cm, plan);
  }

  @Override
  protected int scaleOutStep(TidbCluster tc) {
    return parallelism(
        tc.getSpec().getTidb().getScalePolicy(), ScalePolicy::getScaleOutParallelism);
  }

  @Override
  protected MemberDecision scaleIn(ClusterContext ctx, Rollout rollout, int wanted) {
    return TidbUpgrade.scaleIn(
        rollout.replicas(),
        wanted,
        parallelism(
            ctx.cluster().getSpec().getTidb().getScalePolicy(),
            ScalePolicy::getScaleInParallelism));
  }

  /** Health as probed this reconcile ({@code status.tidb.members}). */
  @Override
  protected MemberDecision upgrade(ClusterContext ctx, Rollout rollout) {
    Set<String> healthy = new TreeSet<>();
    TidbStatus status = ctx.status().getTidb();
    if (status != null && status.getMembers() != null) {
      status.getMembers().forEach((name, m) -> {
        if (Boolean.TRUE.equals(m.getHealth())) {
          healthy.add(name);
        }
      });
    }
    return TidbUpgrade.decide(
        new TidbUpgrade.Facts(rollout, healthy, minReadySeconds(ctx.cluster()), ctx.now()));
  }

  /**
   * Nothing in progress, or before a scale-out: pod annotation {@code
   * tidb.pingcap.com/tidb-graceful-shutdown} ({@link TidbGracefulShutdownAnnotation}).
   */
  @Override
  protected MemberDecision idle(ClusterContext ctx, Rollout rollout) {
    return TidbGracefulShutdownAnnotation.decide(
        new TidbGracefulShutdownAnnotation.Facts(
            rollout,
            ctx.busyOtherThan(component()).map(o -> o.activity().get().message())));
  }

  @Override
  protected TidbStatus statusOf(TidbClusterStatus status) {
    if (status.getTidb() == null) {
      status.setTidb(new TidbStatus());
    }
    return status.getTidb();
  }

  /** Probes every ordinal the StatefulSet runs; a pod not scheduled yet has no node. */
  @Override
  protected void observeMembers(ClusterContext ctx, TidbStatus status, Optional<StatefulSet> sts) {
    int replicas = sts.map(s -> s.getSpec().getReplicas()).orElse(0);
    Map<String, Pod> pods =
        ctx.owned().podsOf(statefulSetName(ctx)).stream()
            .collect(Collectors.toMap(p -> p.getMetadata().getName(), Function.identity()));
    List<TidbMembership.ServerHealth> servers = new ArrayList<>();
    for (int i = 0; i < replicas; i++) {
      String pod = Names.pod(ctx.name(), TidbObjects.COMPONENT, i);
      Pod p = pods.get(pod);
      String node = p == null || p.getSpec() == null ? null : p.getSpec().getNodeName();
      servers.add(
          new TidbMembership.ServerHealth(pod, p != null && ctx.api().tidbHealthy(pod), node));
    }
    TidbMembership.record(status, servers, ctx.now());
    status.setSynced(true);
  }

  // --- failover (tidb/TidbFailover) ------------------------------------------------------

  /** Spec replicas plus one replacement per {@code status.tidb.failureMembers} record. */
  @Override
  protected int desiredReplicas(ClusterContext ctx) {
    Integer replicas = ctx.cluster().getSpec().getTidb().getReplicas();
    TidbStatus status = ctx.status().getTidb();
    int failures =
        status == null || status.getFailureMembers() == null ? 0 : status.getFailureMembers().size();
    return (replicas == null ? 0 : replicas) + failures;
  }

  @Override
  protected void failover(ClusterContext ctx, boolean quiet, Rollout rollout) {
    if (!failoverSettings().auto()) {
      return;
    }
    TidbStatus status = statusOf(ctx.status());
    Integer replicas = ctx.cluster().getSpec().getTidb().getReplicas();
    List<String> specPods = new ArrayList<>();
    for (int i = 0; i < (replicas == null ? 0 : replicas); i++) {
      specPods.add(Names.pod(ctx.name(), TidbObjects.COMPONENT, i));
    }
    Set<String> scheduled = new TreeSet<>();
    Set<String> ready = new TreeSet<>();
    for (Pod pod : ctx.owned().podsOf(statefulSetName(ctx))) {
      String name = pod.getMetadata().getName();
      if (pod.getStatus() != null && pod.getStatus().getConditions() != null) {
        for (var c : pod.getStatus().getConditions()) {
          if ("True".equals(c.getStatus()) && "PodScheduled".equals(c.getType())) {
            scheduled.add(name);
          }
          if ("True".equals(c.getStatus()) && "Ready".equals(c.getType())
              && pod.getMetadata().getDeletionTimestamp() == null) {
            ready.add(name);
          }
        }
      }
    }
    TidbFailover.Result result =
        TidbFailover.decide(
            new TidbFailover.Facts(
                status.getMembers(),
                status.getFailureMembers(),
                ctx.cluster().getSpec().getTidb().getMaxFailoverCount(),
                scheduled,
                ready,
                specPods,
                quiet,
                failoverSettings().tidbPeriod(),
                ctx.now()));
    status.setFailureMembers(result.records());
    result.unhealthy().ifPresent(pod -> ctx.events().warning(ctx.cluster(), "Unhealthy",
        "TiDB: " + pod + " has been unhealthy for longer than the failover period ("
            + failoverSettings().tidbPeriod().toSeconds() + " s); adding a replacement pod"));
    if (result.recovered()) {
      ctx.events().normal(ctx.cluster(), "FailoverRecovered",
          "TiDB: every pod " + specPath() + ".replicas asks for is healthy again; failover records"
              + " cleared, the replacement pods are scaled in");
    }
  }

  /** TiDB's volumes (slow log and the like) are resized all at once, as upstream does. */
  @Override
  protected boolean resizesVolumesOnePodAtATime() {
    return false;
  }
}
