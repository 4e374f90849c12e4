package io.tidb.operator.controller.tidbcluster.pd;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.MemberSpec;
import io.tidb.operator.api.v1alpha1.cluster.PdMember;
import io.tidb.operator.api.v1alpha1.cluster.PdStatus;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.controller.runtime.ApplyOutcome;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.MemberPods;
import io.tidb.operator.controller.tidbcluster.member.MemberStep;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import io.tidb.operator.controller.tidbcluster.pipeline.Prerequisite;
import io.tidb.operator.controller.tidbcluster.pipeline.ReadyCondition;
import io.tidb.operator.controller.tidbcluster.pipeline.StepResult;
import io.tidb.operator.controller.tidbcluster.tls.ClusterTlsHandshakeException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PD: client and peer Services, ConfigMap, StatefulSet; status from PD's health, leader and
 * cluster id. Scales out one member per reconcile, as upstream does, so each new member joins an
 * etcd cluster that has settled; scales in by {@link PdScaleIn} and upgrades by {@link PdUpgrade}.
 */
public final class PdStep extends MemberStep<PdStatus> {

  private static final Logger LOG = LoggerFactory.getLogger(PdStep.class);

  /** Upstream's annotation: check PD keeps a majority before each pod is restarted. */
  public static final String CHECK_QUORUM_ANNOTATION =
      "tidb.pingcap.com/pd-check-quorum-before-upgrade";

  /** Upstream's annotation: upgrade PD even when it cannot be reached (e.g. a single PD). */
  public static final String FORCE_UPGRADE_ANNOTATION = "tidb.pingcap.com/force-upgrade";

  /**
   * Cluster condition: whether the operator can read PD. Its {@code lastTransitionTime} says since
   * when PD has (not) answered.
   */
  public static final String REACHABLE_CONDITION = "PDReachable";

  public static final String REACHABLE = "Reachable";

  public static final String UNREACHABLE = "Unreachable";

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
      setReachable(ctx, Conditions.TRUE, REACHABLE, pd.pdReadThrough()
          .map(through -> "the operator reads PD's members and stores through " + through)
          .orElse("the operator reads PD's members and stores"));
    } catch (IOException e) {
      LOG.info(
          "pd not reachable namespace={} cluster={} error=\"{}\"",
          ctx.namespace(),
          ctx.name(),
          e.getMessage());
      PdMembership.markStale(status, ctx.now());
      if (ctx.status().getTikv() != null) {
        ctx.status().getTikv().setSynced(false);
      }
      String message = "PD did not answer: " + e.getMessage() + ". Everything status shows from"
          + " PD (PD member health, the leader, TiKV stores) is as last seen and marked stale"
          + " (synced: false, health: false); no scale-in or upgrade step runs until PD"
          + " answers";
      boolean changed = Conditions.find(ctx.status().getConditions(), REACHABLE_CONDITION)
          .map(c -> !message.equals(c.getMessage())).orElse(true);
      setReachable(ctx, Conditions.FALSE, UNREACHABLE, message);
      if (e instanceof ClusterTlsHandshakeException && changed) {
        ctx.events().warning(ctx.cluster(), ClusterTlsHandshakeException.REASON,
            "PD: " + e.getMessage() + " (check the CA and certificate of Secret "
                + MemberPods.clusterClientSecret(ctx.name()) + ")");
      }
    }
  }

  @Override
  protected MemberDecision scaleIn(ClusterContext ctx, Rollout rollout, int wanted) {
    TidbClusterSpec spec = ctx.cluster().getSpec();
    List<String> others = new ArrayList<>();
    addIf(others, spec.getTikv() != null, "TiKV");
    addIf(others, spec.getTiflash() != null, "TiFlash");
    addIf(others, spec.getTidb() != null, "TiDB");
    addIf(others, spec.getTicdc() != null, "TiCDC");
    addIf(others, spec.getPump() != null, "Pump");
    addIf(others, spec.getTiproxy() != null, "TiProxy");
    PdStatus status = ctx.status().getPd();
    return PdScaleIn.decide(
        new PdScaleIn.Facts(
            ctx.name(),
            rollout.replicas(),
            wanted,
            others.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", others)),
            members(status),
            peerMembers(status),
            leaderName(status)));
  }

  @Override
  protected MemberDecision upgrade(ClusterContext ctx, Rollout rollout) throws IOException {
    PdStatus status = ctx.status().getPd();
    Map<String, PdMember> members = members(status);
    Set<String> loaded = new TreeSet<>();
    for (String member : PdUpgrade.readinessCandidates(rollout, members)) {
      if (ctx.api().pdMemberReady(member)) {
        loaded.add(member);
      }
    }
    return PdUpgrade.decide(
        new PdUpgrade.Facts(
            rollout,
            members,
            peerMembers(status),
            leaderName(status),
            loaded,
            minReadySeconds(ctx.cluster()),
            annotationTrue(ctx.cluster(), CHECK_QUORUM_ANNOTATION),
            ctx.now()));
  }

  /** With {@code tidb.pingcap.com/force-upgrade: "true"}, an unreachable PD is rolled at once. */
  @Override
  protected Optional<MemberDecision> unsyncedUpgrade(ClusterContext ctx, Rollout rollout) {
    if (!annotationTrue(ctx.cluster(), FORCE_UPGRADE_ANNOTATION) || rollout.partition() == 0) {
      return Optional.empty();
    }
    return Optional.of(
        new MemberDecision.Roll(
            0,
            "PD cannot be reached and " + FORCE_UPGRADE_ANNOTATION + " is true: upgrading every"
                + " PD pod at once"));
  }

  private static void setReachable(ClusterContext ctx, String status, String reason, String msg) {
    ctx.status()
        .setConditions(
            Conditions.set(
                ctx.status().getConditions(),
                REACHABLE_CONDITION,
                status,
                reason,
                msg,
                ctx.cluster().getMetadata().getGeneration(),
                ctx.now()));
  }

  /**
   * Nothing in progress, or before a scale-out: pod annotation {@code
   * tidb.pingcap.com/pd-transfer-leader} ({@link PdTransferLeaderAnnotation}), then a member a
   * scale-in left behind ({@link PdLeftoverMembers}), while PD is read.
   */
  @Override
  protected MemberDecision idle(ClusterContext ctx, Rollout rollout) {
    PdStatus status = ctx.status().getPd();
    if (status == null || !Boolean.TRUE.equals(status.getSynced())) {
      return MemberDecision.IDLE;
    }
    MemberDecision asked =
        PdTransferLeaderAnnotation.decide(
            new PdTransferLeaderAnnotation.Facts(
                rollout, members(status), leaderName(status), ctx.now()));
    if (!(asked instanceof MemberDecision.Idle)) {
      return asked;
    }
    return PdLeftoverMembers.decide(ctx.name(), members(status), rollout)
        .orElse(MemberDecision.IDLE);
  }

  private static Map<String, PdMember> members(PdStatus status) {
    return status == null || status.getMembers() == null ? Map.of() : status.getMembers();
  }

  private static Map<String, PdMember> peerMembers(PdStatus status) {
    return status == null || status.getPeerMembers() == null ? Map.of() : status.getPeerMembers();
  }

  private static Optional<String> leaderName(PdStatus status) {
    return Optional.ofNullable(status == null ? null : status.getLeader()).map(PdMember::getName);
  }

  private static void addIf(List<String> names, boolean present, String name) {
    if (present) {
      names.add(name);
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

  // --- failover (pd/PdFailover) ----------------------------------------------------------

  /**
   * Spec replicas plus one replacement per failed member already deleted from PD, plus the spare
   * replicas while a volume replace is in progress.
   */
  @Override
  protected int desiredReplicas(ClusterContext ctx) {
    Integer replicas = ctx.cluster().getSpec().getPd().getReplicas();
    PdStatus status = ctx.status().getPd();
    long deleted =
        status == null || status.getFailureMembers() == null
            ? 0
            : status.getFailureMembers().values().stream().filter(PdFailover::deleted).count();
    return (replicas == null ? 0 : replicas) + (int) deleted + spareInUse(ctx);
  }

  // --- volume replace (pd/PdVolumeReplace) -----------------------------------------------

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
    return io.tidb.operator.controller.tidbcluster.member.VolumeReplace.spare(
        tc.getSpec().getPd().getSpareVolReplaceReplicas());
  }

  /** Every pod the spec asks for is Ready and a healthy PD member. */
  @Override
  protected boolean membersBack(ClusterContext ctx, Rollout rollout) {
    if (!super.membersBack(ctx, rollout)) {
      return false;
    }
    Map<String, PdMember> members = members(ctx.status().getPd());
    Integer replicas = ctx.cluster().getSpec().getPd().getReplicas();
    for (int i = 0; i < (replicas == null ? 0 : replicas); i++) {
      PdMember m = members.get(rollout.podName(i));
      if (m == null || !Boolean.TRUE.equals(m.getHealth())) {
        return false;
      }
    }
    return true;
  }

  @Override
  protected MemberDecision replaceVolume(
      ClusterContext ctx,
      Rollout rollout,
      StatefulSet sts,
      io.tidb.operator.controller.tidbcluster.member.ObservedPod pod) {
    PdStatus status = ctx.status().getPd();
    boolean podsReady = true;
    for (int i = 0; i < rollout.replicas(); i++) {
      podsReady &= rollout.pod(i).filter(p -> p.ready()).isPresent();
    }
    return PdVolumeReplace.decide(
        new PdVolumeReplace.Facts(
            pod,
            members(status),
            leaderName(status),
            podsReady && PdMembership.ready(status, desiredReplicas(ctx)),
            io.tidb.operator.controller.tidbcluster.member.VolumeReplace.claimsOf(ctx, sts, pod)));
  }

  @Override
  protected void failover(ClusterContext ctx, boolean quiet, Rollout rollout)
      throws IOException {
    if (!failoverSettings().auto()) {
      return;
    }
    PdStatus status = statusOf(ctx.status());
    Integer replicas = ctx.cluster().getSpec().getPd().getReplicas();
    Set<String> ready = new TreeSet<>();
    for (int i = 0; i < rollout.replicas(); i++) {
      rollout.pod(i).filter(p -> p.ready()).ifPresent(p -> ready.add(p.name()));
    }
    PdFailover.Decision decision =
        PdFailover.decide(
            new PdFailover.Facts(
                ctx.name(),
                status.getMembers(),
                status.getPeerMembers(),
                status.getFailureMembers(),
                replicas == null ? 0 : replicas,
                ctx.cluster().getSpec().getPd().getMaxFailoverCount(),
                ready,
                Boolean.TRUE.equals(status.getSynced()),
                quiet,
                failoverSettings().pdPeriod(),
                ctx.now()));
    Optional<StatefulSet> sts = existing(ctx);
    String period = failoverSettings().pdPeriod().toSeconds() + " s";
    if (decision instanceof PdFailover.Recover) {
      status.setFailureMembers(null);
      ctx.events().normal(ctx.cluster(), "FailoverRecovered",
          "PD: every pod spec.pd.replicas asks for is a healthy member again; failover records"
              + " cleared, the replacement member is removed as in a scale-in");
    } else if (decision instanceof PdFailover.Mark m) {
      io.tidb.operator.api.v1alpha1.cluster.PdFailureMember record =
          new io.tidb.operator.api.v1alpha1.cluster.PdFailureMember();
      record.setPodName(m.pod());
      record.setMemberID(m.memberId());
      record.setMemberDeleted(false);
      record.setCreatedAt(ctx.now().toString());
      Map<String, Map<String, String>> uids = new java.util.TreeMap<>();
      for (String claim : failoverClaims(sts, m.pod())) {
        // Recorded once: from the API server, not a cache that may trail it.
        ctx.claims().current(claim).ifPresent(c -> uids.put(c.getMetadata().getUid(), Map.of()));
      }
      record.setPvcUIDSet(uids.isEmpty() ? null : uids);
      Map<String, io.tidb.operator.api.v1alpha1.cluster.PdFailureMember> records =
          status.getFailureMembers() == null
              ? new java.util.TreeMap<>()
              : new java.util.TreeMap<>(status.getFailureMembers());
      records.put(m.pod(), record);
      status.setFailureMembers(records);
      ctx.events().warning(ctx.cluster(), "PDMemberUnhealthy",
          "PD: member " + m.pod() + " (" + m.memberId() + ") has been unhealthy for longer than"
              + " the failover period (" + period + "); it is deleted and replaced next");
    } else if (decision instanceof PdFailover.Delete d) {
      var record = status.getFailureMembers().get(d.pod());
      if (record == null) {
        return;
      }
      if (d.memberId() != null && !d.memberId().isEmpty()) {
        ctx.api().deletePdMemberById(d.memberId());
      }
      // The claims go first: while they are being deleted the StatefulSet cannot recreate the pod
      // on them, so the replacement starts on new claims (upstream deletes the pod first, and a
      // pod recreated at once can still mount the old claims).
      // The claims are read from the API server: a cache still showing the failed member's claims
      // after the replacement got new ones would have the replacement's pod deleted.
      boolean recordedClaims = record.getPvcUIDSet() == null;
      for (String claim : failoverClaims(sts, d.pod())) {
        Optional<io.fabric8.kubernetes.api.model.PersistentVolumeClaim> pvc = ctx.claims().current(claim);
        if (pvc.isPresent() && (record.getPvcUIDSet() == null
            || record.getPvcUIDSet().containsKey(pvc.get().getMetadata().getUid()))) {
          recordedClaims = true;
          if (pvc.get().getMetadata().getDeletionTimestamp() == null) {
            ctx.claims().delete(claim, pvc.get().getMetadata().getUid());
          }
        }
      }
      for (io.fabric8.kubernetes.api.model.Pod pod : ctx.owned().podsOf(statefulSetName(ctx))) {
        // A pod created after the record on new claims is the replacement (the operator stopped
        // after deleting the failed pod and its claims, before it wrote memberDeleted): it stays.
        // One created after the record on the failed member's claims is deleted again, so it
        // starts on new ones.
        if (d.pod().equals(pod.getMetadata().getName())
            && (recordedClaims
                || PdFailover.createdBefore(pod.getMetadata().getCreationTimestamp(),
                    record.getCreatedAt()))) {
          ctx.deletions().deletePod(d.pod(), pod.getMetadata().getUid());
        }
      }
      record.setMemberDeleted(true);
      ctx.events().warning(ctx.cluster(), "PDMemberDeleted",
          "PD: failed member " + d.pod() + " (" + d.memberId() + ") deleted from the PD cluster"
              + " (DELETE members/id); its pod and volume claims are deleted and a replacement"
              + " member is added");
    } else if (decision instanceof PdFailover.Nothing n) {
      if (!n.why().isEmpty()) {
        LOG.debug("pd failover skipped namespace={} cluster={} why=\"{}\"",
            ctx.namespace(), ctx.name(), n.why());
      }
    }
  }

  private static List<String> failoverClaims(Optional<StatefulSet> sts, String pod) {
    int dash = pod.lastIndexOf('-');
    if (sts.isEmpty() || dash < 0) {
      return List.of();
    }
    try {
      return io.tidb.operator.controller.tidbcluster.member.VolumeActions.claimNames(
          sts.get(), Integer.parseInt(pod.substring(dash + 1)));
    } catch (NumberFormatException e) {
      return List.of();
    }
  }

  /** Upstream's label on a PD member's claims: its PD member id, once PD reported it. */
  @Override
  protected Map<String, String> volumeLabels(ClusterContext ctx, String pod) {
    PdStatus status = ctx.status().getPd();
    PdMember member = status == null || status.getMembers() == null ? null : status.getMembers().get(pod);
    return member == null || member.getId() == null || member.getId().isEmpty()
        ? Map.of()
        : Map.of("tidb.pingcap.com/member-id", member.getId());
  }
}
