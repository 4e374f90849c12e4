package io.tidb.operator.controller.tidbcluster.tiflash;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.FailureStore;
import io.tidb.operator.api.v1alpha1.cluster.MemberSpec;
import io.tidb.operator.api.v1alpha1.cluster.ScalePolicy;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.api.v1alpha1.cluster.TiflashSpec;
import io.tidb.operator.api.v1alpha1.cluster.TiflashStatus;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.MemberStep;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import io.tidb.operator.controller.tidbcluster.member.StoreFailover;
import io.tidb.operator.controller.tidbcluster.member.StoreMembership;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import io.tidb.operator.controller.tidbcluster.pipeline.Prerequisite;
import io.tidb.operator.controller.tidbcluster.pipeline.ReadyCondition;
import io.tidb.operator.controller.tidbcluster.pipeline.StepResult;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TiFlash: waits for PD's quorum; makes sure PD has placement rules on (TiFlash replicas are
 * placed by them); then the peer Service, ConfigMap and StatefulSet; status from PD's stores
 * labelled {@code engine=tiflash}. Scales in by {@link TiflashScaleIn}, upgrades by {@link
 * TiflashUpgrade} and fails over Down stores through the shared {@link StoreFailover}. It runs after PD and before TiKV, so its upgrade waits while PD is busy and
 * TiKV's waits for it.
 */
public final class TiflashStep extends MemberStep<TiflashStatus> {

  /** Upstream's reason when a TiFlash store is not Up. */
  public static final String TIFLASH_STORE_NOT_UP = "TiFlashStoreNotUp";

  /** Event reason when the operator turned PD's placement rules on. */
  public static final String PLACEMENT_RULES_ENABLED = "PlacementRulesEnabled";

  /** How long a pod that is not Ready may lack a store before scale-in passes it by. */
  static final Duration REGISTER_GRACE = Duration.ofMinutes(5);

  private static final Logger LOG = LoggerFactory.getLogger(TiflashStep.class);

  /** @param pdAvailable what PD must offer before TiFlash starts (PD's quorum) */
  public TiflashStep(Prerequisite pdAvailable) {
    super(pdAvailable);
  }

  @Override
  protected Component component() {
    return TiflashObjects.COMPONENT;
  }

  @Override
  protected MemberSpec spec(TidbCluster tc) {
    return tc.getSpec().getTiflash();
  }

  @Override
  protected String displayName() {
    return "TiFlash";
  }

  @Override
  public ReadyCondition.ReadinessCheck readiness() {
    return ReadyCondition.requiring(
        (status, desired) -> StoreMembership.ready(status.getTiflash(), desired),
        TIFLASH_STORE_NOT_UP,
        "TiFlash store(s) are not up");
  }

  /** TiFlash's stores among PD's: those labelled {@code engine=tiflash}. */
  static boolean isTiflash(ClusterApi.StoreView store) {
    return "tiflash".equals(store.labels().get("engine"));
  }

  @Override
  public StepResult apply(ClusterContext ctx) throws Exception {
    Optional<String> recovering = recovering(ctx);
    if (recovering.isPresent()) {
      return StepResult.inProgress(recovering.get());
    }
    ensurePlacementRules(ctx);
    return super.apply(ctx);
  }

  /** Upstream's {@code syncRecoveryForTiFlash} ({@link TiflashRecovery}). */
  private static Optional<String> recovering(ClusterContext ctx) {
    Optional<String> volumes = TiflashRecovery.waitingForVolumes(ctx.cluster());
    if (volumes.isPresent() || !Boolean.TRUE.equals(ctx.cluster().getSpec().getRecoveryMode())) {
      return volumes;
    }
    TiflashRecovery.Mark mark;
    try {
      mark = ctx.api().snapshotRecovering()
          ? TiflashRecovery.Mark.MARKED : TiflashRecovery.Mark.CLEAR;
    } catch (IOException e) {
      mark = TiflashRecovery.Mark.UNKNOWN;
    }
    return TiflashRecovery.waitingForMark(mark);
  }

  /**
   * Upstream's rule: when PD reports {@code enable-placement-rules} false, turn it on. A failed
   * call (PD refuses it before TiKV has bootstrapped the cluster) is logged and tried again on
   * the next reconcile; it does not hold TiFlash's objects back.
   */
  private void ensurePlacementRules(ClusterContext ctx) {
    try {
      if (!ctx.api().placementRulesEnabled()) {
        ctx.api().enablePlacementRules();
        ctx.events().normal(ctx.cluster(), PLACEMENT_RULES_ENABLED,
            "TiFlash: PD's replication.enable-placement-rules was false; turned it on, as"
                + " TiFlash replicas are placed by placement rules");
      }
    } catch (IOException e) {
      LOG.info(
          "placement rules not enabled yet namespace={} cluster={} error=\"{}\"",
          ctx.namespace(),
          ctx.name(),
          e.getMessage());
    }
  }

  @Override
  protected List<Service> services(TidbCluster tc) {
    return List.of(TiflashObjects.peerService(tc));
  }

  @Override
  protected ConfigMap configMap(TidbCluster tc, Optional<String> inUse) {
    return TiflashObjects.configMap(tc, inUse);
  }

  @Override
  protected StatefulSet statefulSet(TidbCluster tc, ConfigMap cm, StatefulSetPlan plan) {
    return TiflashObjects.statefulSet(tc, cm, plan);
  }

  @Override
  protected int scaleOutStep(TidbCluster tc) {
    return parallelism(
        tc.getSpec().getTiflash().getScalePolicy(), ScalePolicy::getScaleOutParallelism);
  }

  @Override
  protected TiflashStatus statusOf(TidbClusterStatus status) {
    if (status.getTiflash() == null) {
      status.setTiflash(new TiflashStatus());
    }
    return status.getTiflash();
  }

  @Override
  protected MemberDecision scaleIn(ClusterContext ctx, Rollout rollout, int wanted)
      throws IOException {
    return TiflashScaleIn.decide(
        new TiflashScaleIn.Facts(
            rollout,
            wanted,
            parallelism(
                ctx.cluster().getSpec().getTiflash().getScalePolicy(),
                ScalePolicy::getScaleInParallelism),
            TiflashStores.of(ctx.status().getTiflash()),
            REGISTER_GRACE,
            ctx.now(),
            ctx.api().tiflashReplicasNeeded()));
  }

  @Override
  protected MemberDecision upgrade(ClusterContext ctx, Rollout rollout) {
    TiflashStores stores = TiflashStores.of(ctx.status().getTiflash());
    long minReady = minReadySeconds(ctx.cluster());
    boolean check = TiflashVersion.reportsStoreStatus(TiflashObjects.version(ctx.cluster()));
    Map<String, TiflashUpgrade.StoreStatus> answers = new TreeMap<>();
    if (check) {
      for (String pod : TiflashUpgrade.toAsk(rollout, stores, minReady, ctx.now())) {
        try {
          answers.put(pod, TiflashUpgrade.StoreStatus.of(ctx.api().tiflashStoreStatus(pod)));
        } catch (IOException e) {
          answers.put(pod, TiflashUpgrade.StoreStatus.failed(e.getMessage()));
        }
      }
    }
    return TiflashUpgrade.decide(
        new TiflashUpgrade.Facts(rollout, stores, minReady, ctx.now(), check, answers));
  }

  @Override
  protected void observeMembers(
      ClusterContext ctx, TiflashStatus status, Optional<StatefulSet> sts) {
    try {
      Optional<ClusterApi.Stores> stores = ctx.api().stores();
      ClusterApi.Stores lists = stores.orElse(new ClusterApi.Stores(List.of(), List.of()));
      StoreMembership.record(
          status,
          ctx.name(),
          ctx.namespace(),
          TiflashObjects.COMPONENT.label(),
          lists.live().stream().filter(TiflashStep::isTiflash).toList(),
          lists.tombstones().stream().filter(TiflashStep::isTiflash).toList(),
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

  // --- failover (member/StoreFailover), upstream's tiflash_failover.go ------------------

  /** Spec replicas plus one replacement per {@code status.tiflash.failureStores} record. */
  @Override
  protected int desiredReplicas(ClusterContext ctx) {
    Integer replicas = ctx.cluster().getSpec().getTiflash().getReplicas();
    TiflashStatus status = ctx.status().getTiflash();
    int failures =
        status == null || status.getFailureStores() == null ? 0 : status.getFailureStores().size();
    return (replicas == null ? 0 : replicas) + failures;
  }

  @Override
  protected void failover(ClusterContext ctx, boolean quiet, Rollout rollout) {
    TiflashStatus status = statusOf(ctx.status());
    TiflashSpec spec = ctx.cluster().getSpec().getTiflash();
    Set<String> ready = new TreeSet<>();
    for (int i = 0; i < rollout.replicas(); i++) {
      rollout.pod(i).filter(ObservedPod::ready).ifPresent(p -> ready.add(p.name()));
    }
    StoreFailover.Result result =
        StoreFailover.decide(
            new StoreFailover.Facts(
                statefulSetName(ctx),
                status.getStores(),
                status.getFailureStores(),
                status.getFailoverUID(),
                spec.getReplicas() == null ? 0 : spec.getReplicas(),
                spec.getMaxFailoverCount(),
                Boolean.TRUE.equals(spec.getRecoverFailover()),
                spec.getFailover() == null ? null : spec.getFailover().getRecoverByUID(),
                ready,
                failoverSettings().auto(),
                quiet && Boolean.TRUE.equals(status.getSynced()),
                failoverSettings().tiflashPeriod(),
                ctx.now(),
                UUID.randomUUID().toString()));
    status.setFailureStores(result.records());
    status.setFailoverUID(result.failoverUid());
    for (FailureStore r : result.recorded()) {
      ctx.events().warning(ctx.cluster(), "Unhealthy",
          "TiFlash: store " + r.getStoreID() + " (" + r.getPodName() + ") has been Down for"
              + " longer than the failover period ("
              + failoverSettings().tiflashPeriod().toSeconds() + " s); adding a replacement pod");
    }
    if (result.recovered()) {
      ctx.events().normal(ctx.cluster(), "FailoverRecovered",
          "TiFlash: failover records cleared (recoverFailover or failover.recoverByUID); the"
              + " replacement pods are scaled in like any scale-in");
    }
  }

  /** Upstream's label on a TiFlash pod's claims: its store id, once PD reported the store. */
  @Override
  protected Map<String, String> volumeLabels(ClusterContext ctx, String pod) {
    return TiflashStores.of(ctx.status().getTiflash()).of(pod)
        .filter(s -> s.id() != null)
        .map(s -> Map.of("tidb.pingcap.com/store-id", s.id()))
        .orElse(Map.of());
  }
}
