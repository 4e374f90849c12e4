package io.tidb.operator.controller.tidbcluster.tikv;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.GoDuration;
import io.tidb.operator.api.v1alpha1.cluster.MemberSpec;
import io.tidb.operator.api.v1alpha1.cluster.ScalePolicy;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.api.v1alpha1.cluster.TikvSpec;
import io.tidb.operator.api.v1alpha1.cluster.TikvStatus;
import io.tidb.operator.api.v1alpha1.cluster.TikvStore;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.MemberStep;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.member.VolumeReplace;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import io.tidb.operator.controller.tidbcluster.member.StoreFailover;
import io.tidb.operator.controller.tidbcluster.member.StoreMembership;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import io.tidb.operator.controller.tidbcluster.pipeline.Prerequisite;
import io.tidb.operator.controller.tidbcluster.pipeline.ReadyCondition;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TiKV: waits for PD quorum; then the peer Service, ConfigMap and StatefulSet; status from PD's
 * store lists. Scales out {@code spec.tikv.scalePolicy.scaleOutParallelism} stores per reconcile
 * (default 1); scales in by {@link TikvScaleIn} and upgrades by {@link TikvUpgrade}.
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
    return parallelism(
        tc.getSpec().getTikv().getScalePolicy(), ScalePolicy::getScaleOutParallelism);
  }

  @Override
  protected TikvStatus statusOf(TidbClusterStatus status) {
    if (status.getTikv() == null) {
      status.setTikv(new TikvStatus());
    }
    return status.getTikv();
  }

  /** How long a pod that is not Ready may lack a store before scale-in passes it by. */
  static final Duration REGISTER_GRACE = Duration.ofMinutes(5);

  /** Upstream's defaults for {@code spec.tikv.evictLeaderTimeout} and the wait for leaders. */
  static final Duration DEFAULT_EVICT_LEADER_TIMEOUT = Duration.ofMinutes(1500);

  static final Duration DEFAULT_WAIT_LEADER_BACK_TIMEOUT = Duration.ofSeconds(400);

  @Override
  protected MemberDecision scaleIn(ClusterContext ctx, Rollout rollout, int wanted)
      throws IOException {
    TikvSpec spec = ctx.cluster().getSpec().getTikv();
    int parallelism = parallelism(spec.getScalePolicy(), ScalePolicy::getScaleInParallelism);
    return TikvScaleIn.decide(
        new TikvScaleIn.Facts(
            rollout,
            wanted,
            parallelism,
            stores(ctx, rollout),
            ctx.api().maxReplicas(),
            duration(spec.getEvictLeaderTimeout(), DEFAULT_EVICT_LEADER_TIMEOUT),
            Boolean.TRUE.equals(ctx.status().getTikv().getBootStrapped()),
            REGISTER_GRACE,
            ctx.now()));
  }

  @Override
  protected MemberDecision upgrade(ClusterContext ctx, Rollout rollout) throws IOException {
    TikvSpec spec = ctx.cluster().getSpec().getTikv();
    Map<String, Integer> before = new TreeMap<>();
    Map<String, TikvStore> known = ctx.status().getTikv().getStores();
    if (known != null) {
      known.forEach(
          (id, store) -> {
            if (store.getLeaderCountBeforeUpgrade() != null) {
              before.put(id, store.getLeaderCountBeforeUpgrade());
            }
          });
    }
    return TikvUpgrade.decide(
        new TikvUpgrade.Facts(
            rollout,
            stores(ctx, rollout),
            before,
            duration(spec.getEvictLeaderTimeout(), DEFAULT_EVICT_LEADER_TIMEOUT),
            duration(spec.getWaitLeaderTransferBackTimeout(), DEFAULT_WAIT_LEADER_BACK_TIMEOUT),
            minReadySeconds(ctx.cluster()),
            ctx.now()));
  }

  /**
   * Nothing in progress, or before a scale-out: an Offline store the spec wants again gets its
   * removal cancelled; an evict-leader scheduler still on one of this cluster's stores ends (one
   * per pass); then the eviction records of finished operations are forgotten.
   */
  @Override
  protected MemberDecision idle(ClusterContext ctx, Rollout rollout) throws IOException {
    TikvStatus status = ctx.status().getTikv();
    if (!Boolean.TRUE.equals(status.getSynced()) || !Boolean.TRUE.equals(status.getBootStrapped())) {
      return MemberDecision.IDLE;
    }
    TikvStores stores = stores(ctx, rollout);
    Optional<MemberDecision> cancel =
        TikvScaleIn.cancelAbandoned(stores, rollout, spec(ctx.cluster()).getReplicas());
    if (cancel.isPresent()) {
      return cancel.get();
    }
    MemberDecision asked = evictLeaderAnnotation(ctx, rollout, stores);
    if (!(asked instanceof MemberDecision.Idle)) {
      return asked;
    }
    Optional<TikvActions.EndEvict> stray = stores.strayEviction(Set.of());
    if (stray.isPresent()) {
      TikvActions.EndEvict end = stray.get();
      return new MemberDecision.Act(
          end,
          "ending leader eviction of store " + end.storeId()
              + (end.pod() == null ? "" : " (" + end.pod() + ")")
              + ": no scale-in or upgrade needs it");
    }
    TikvActions.forgetAll(status);
    return MemberDecision.IDLE;
  }

  /** The user's evictions: pod annotation {@code tidb.pingcap.com/evict-leader}. */
  private MemberDecision evictLeaderAnnotation(
      ClusterContext ctx, Rollout rollout, TikvStores stores) {
    TikvSpec spec = ctx.cluster().getSpec().getTikv();
    return TikvEvictLeaderAnnotation.decide(
        new TikvEvictLeaderAnnotation.Facts(
            rollout,
            stores,
            ctx.status().getTikv().getEvictLeader(),
            duration(spec.getEvictLeaderTimeout(), DEFAULT_EVICT_LEADER_TIMEOUT),
            ctx.now()));
  }

  /**
   * This cluster's TiKV stores, read from PD now (fresh leader and region counts), with the
   * evictions in progress. An eviction found in PD but not in {@code status.tikv.evictLeader}
   * (the operator stopped between the two) is recorded as beginning now. The evictions users
   * asked for (annotated pods of {@code rollout}, user records) are marked as requested.
   */
  private TikvStores stores(ClusterContext ctx, Rollout rollout) throws IOException {
    ClusterApi.Stores lists =
        ctx.api().stores().orElse(new ClusterApi.Stores(List.of(), List.of()));
    Pattern own =
        StoreMembership.ownAddress(ctx.name(), ctx.namespace(), TikvObjects.COMPONENT.label());
    Map<String, TikvStores.Store> live = new TreeMap<>();
    Set<String> ids = new TreeSet<>();
    int otherUp = 0;
    for (ClusterApi.StoreView v : lists.live()) {
      if (isTikv(v) && !own.matcher(v.address()).find() && "Up".equals(v.state())) {
        otherUp++;
      }
      if (isTikv(v) && own.matcher(v.address()).find() && !"Tombstone".equals(v.state())) {
        String pod = podOf(v);
        live.put(pod, new TikvStores.Store(v.id(), pod, v.state(), v.leaderCount(), v.regionCount()));
        ids.add(v.id());
      }
    }
    Set<String> tombstonePods = new TreeSet<>();
    for (ClusterApi.StoreView v : lists.tombstones()) {
      if (isTikv(v) && own.matcher(v.address()).find()) {
        ids.add(v.id());
        if (!live.containsKey(podOf(v))) {
          tombstonePods.add(podOf(v));
        }
      }
    }
    Set<String> evicting = new TreeSet<>(ctx.api().evictLeaderStoreIds());
    evicting.retainAll(ids);
    TikvStatus status = ctx.status().getTikv();
    Map<String, Instant> began = new TreeMap<>();
    for (TikvStores.Store s : live.values()) {
      if (evicting.contains(s.id())) {
        TikvActions.record(status, s.pod(), Conditions.timestamp(ctx.now()), "adopted");
      }
    }
    if (status.getEvictLeader() != null) {
      status.getEvictLeader().forEach((pod, e) -> {
        if (e.getBeginTime() != null) {
          began.put(pod, Instant.parse(e.getBeginTime()));
        }
      });
    }
    return new TikvStores(
        live,
        tombstonePods,
        evicting,
        began,
        TikvEvictLeaderAnnotation.requested(rollout, live, status.getEvictLeader(), ctx.now()),
        otherUp);
  }

  private static String podOf(ClusterApi.StoreView v) {
    String host = StoreMembership.hostOf(v.address());
    return host.contains(".") ? host.substring(0, host.indexOf('.')) : host;
  }

  private static Duration duration(String text, Duration fallback) {
    if (text == null || text.isBlank()) {
      return fallback;
    }
    try {
      return GoDuration.parse(text);
    } catch (IllegalArgumentException e) {
      return fallback;
    }
  }

  // --- failover (member/StoreFailover) ------------------------------------------------------

  /**
   * Spec replicas plus one replacement per {@code status.tikv.failureStores} record, plus the
   * spare replicas while a volume replace is in progress.
   */
  @Override
  protected int desiredReplicas(ClusterContext ctx) {
    Integer replicas = ctx.cluster().getSpec().getTikv().getReplicas();
    TikvStatus status = ctx.status().getTikv();
    int failures =
        status == null || status.getFailureStores() == null ? 0 : status.getFailureStores().size();
    return (replicas == null ? 0 : replicas) + failures + spareInUse(ctx);
  }

  // --- volume replace (tikv/TikvVolumeReplace) -------------------------------------------

  @Override
  protected boolean replacesVolumes() {
    return true;
  }

  @Override
  protected boolean cleansOrphanPods() {
    return true;
  }

  @Override
  protected int spareReplicas(TidbCluster tc) {
    return VolumeReplace.spare(tc.getSpec().getTikv().getSpareVolReplaceReplicas());
  }

  /** Every pod the spec asks for is Ready and has an Up store. */
  @Override
  protected boolean membersBack(ClusterContext ctx, Rollout rollout) {
    if (!super.membersBack(ctx, rollout)) {
      return false;
    }
    TikvStatus status = ctx.status().getTikv();
    Map<String, TikvStore> stores =
        status == null || status.getStores() == null ? Map.of() : status.getStores();
    Integer replicas = ctx.cluster().getSpec().getTikv().getReplicas();
    for (int i = 0; i < (replicas == null ? 0 : replicas); i++) {
      String pod = rollout.podName(i);
      boolean up =
          stores.values().stream()
              .anyMatch(s -> pod.equals(s.getPodName()) && "Up".equals(s.getState()));
      if (!up) {
        return false;
      }
    }
    return true;
  }

  @Override
  protected MemberDecision replaceVolume(
      ClusterContext ctx, Rollout rollout, StatefulSet sts, ObservedPod pod) throws IOException {
    boolean podsReady = true;
    for (int i = 0; i < rollout.replicas(); i++) {
      podsReady &= rollout.pod(i).filter(ObservedPod::ready).isPresent();
    }
    return TikvVolumeReplace.decide(
        new TikvVolumeReplace.Facts(
            pod,
            stores(ctx, rollout),
            desiredReplicas(ctx),
            podsReady,
            ctx.api().maxReplicas(),
            Boolean.TRUE.equals(ctx.status().getTikv().getBootStrapped()),
            VolumeReplace.claimsOf(ctx, sts, pod)));
  }

  @Override
  protected void failover(ClusterContext ctx, boolean quiet, Rollout rollout) {
    TikvStatus status = statusOf(ctx.status());
    io.tidb.operator.api.v1alpha1.cluster.TikvSpec spec = ctx.cluster().getSpec().getTikv();
    java.util.Set<String> ready = new java.util.TreeSet<>();
    for (int i = 0; i < rollout.replicas(); i++) {
      rollout.pod(i).filter(p -> p.ready()).ifPresent(p -> ready.add(p.name()));
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
                failoverSettings().tikvPeriod(),
                ctx.now(),
                java.util.UUID.randomUUID().toString()));
    status.setFailureStores(result.records());
    status.setFailoverUID(result.failoverUid());
    for (io.tidb.operator.api.v1alpha1.cluster.FailureStore r : result.recorded()) {
      ctx.events().warning(ctx.cluster(), "Unhealthy",
          "TiKV: store " + r.getStoreID() + " (" + r.getPodName() + ") has been Down for longer"
              + " than the failover period (" + failoverSettings().tikvPeriod().toSeconds()
              + " s); adding a replacement pod");
    }
    if (result.recovered()) {
      ctx.events().normal(ctx.cluster(), "FailoverRecovered",
          "TiKV: failover records cleared (recoverFailover or failover.recoverByUID); the"
              + " replacement pods are scaled in"
              + " like any scale-in");
    }
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

  /** Upstream's label on a TiKV pod's claims: its store id, once PD reported the store. */
  @Override
  protected java.util.Map<String, String> volumeLabels(ClusterContext ctx, String pod) {
    io.tidb.operator.api.v1alpha1.cluster.TikvStatus status = ctx.status().getTikv();
    if (status == null || status.getStores() == null) {
      return java.util.Map.of();
    }
    return status.getStores().values().stream()
        .filter(s -> pod.equals(s.getPodName()) && s.getId() != null)
        .findFirst()
        .map(s -> java.util.Map.of("tidb.pingcap.com/store-id", s.getId()))
        .orElse(java.util.Map.of());
  }
}
