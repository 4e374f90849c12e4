package io.tidb.operator.controller.tidbcluster.pump;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.MemberSpec;
import io.tidb.operator.api.v1alpha1.cluster.PumpMember;
import io.tidb.operator.api.v1alpha1.cluster.PumpStatus;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.MemberStep;
import io.tidb.operator.controller.tidbcluster.member.Names;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import io.tidb.operator.controller.tidbcluster.pipeline.Prerequisite;
import io.tidb.operator.controller.tidbcluster.pipeline.ReadyCondition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Pump (TiDB Binlog): the headless Service, ConfigMap and StatefulSet; {@code
 * status.pump.members} from the binlog registry in PD's etcd (this cluster's pumps: those whose
 * advertised host is one of its pods). A scale-in takes the last pump offline and removes its pod
 * only once the registry says {@code offline} ({@link PumpScaleIn}); an upgrade replaces one pod
 * at a time, each back online before the next ({@link PumpUpgrade}). TiDB waits for an online
 * pump ({@link #available()}), as upstream.
 */
public final class PumpStep extends MemberStep<PumpStatus> {

  /**
   * The {@code Ready} reason while a pump the spec asks for is not online. Upstream's Ready
   * condition has no Pump case (a missing pump holds TiDB instead); this operator names it.
   */
  public static final String PUMP_NOT_ONLINE = "PumpNotOnline";

  /** @param before what must be there before Pump starts (upstream: nothing) */
  public PumpStep(Prerequisite before) {
    super(before);
  }

  @Override
  protected Component component() {
    return PumpObjects.COMPONENT;
  }

  @Override
  protected MemberSpec spec(TidbCluster tc) {
    return tc.getSpec().getPump();
  }

  @Override
  protected String displayName() {
    return "Pump";
  }

  /**
   * Upstream's {@code PumpIsAvailable}: with {@code spec.pump}, TiDB starts only once at least one
   * pump is online.
   */
  public Prerequisite available() {
    return ctx -> {
      if (ctx.cluster().getSpec().getPump() == null) {
        return Optional.empty();
      }
      PumpStatus status = ctx.status().getPump();
      boolean online = status != null && status.getMembers() != null
          && status.getMembers().stream().anyMatch(m -> PumpScaleIn.ONLINE.equals(m.getState()));
      return online ? Optional.empty()
          : Optional.of("an online pump (spec.pump is set: TiDB writes its binlog to Pump)");
    };
  }

  @Override
  public ReadyCondition.ReadinessCheck readiness() {
    return ReadyCondition.requiring(
        (status, desired) -> status.getPump() != null
            && Boolean.TRUE.equals(status.getPump().getSynced())
            && onlineCount(status.getPump()) == desired,
        PUMP_NOT_ONLINE,
        "Pump(s) are not online");
  }

  private static int onlineCount(PumpStatus status) {
    return status.getMembers() == null ? 0
        : (int) status.getMembers().stream()
            .filter(m -> PumpScaleIn.ONLINE.equals(m.getState())).count();
  }

  @Override
  protected List<Service> services(TidbCluster tc) {
    return List.of(PumpObjects.headlessService(tc));
  }

  @Override
  protected ConfigMap configMap(TidbCluster tc, Optional<String> inUse) {
    return PumpObjects.configMap(tc, inUse);
  }

  @Override
  protected StatefulSet statefulSet(TidbCluster tc, ConfigMap cm, StatefulSetPlan plan) {
    return PumpObjects.statefulSet(tc, cm, plan);
  }

  /** Upstream scales Pump one pod at a time. */
  @Override
  protected int scaleOutStep(TidbCluster tc) {
    return 1;
  }

  @Override
  protected PumpStatus statusOf(TidbClusterStatus status) {
    if (status.getPump() == null) {
      status.setPump(new PumpStatus());
    }
    return status.getPump();
  }

  /** This cluster's pumps in the registry; unreadable registry: not synced, members kept. */
  @Override
  protected void observeMembers(ClusterContext ctx, PumpStatus status, Optional<StatefulSet> sts) {
    List<ClusterApi.PumpNode> nodes;
    try {
      nodes = ctx.api().pumps();
    } catch (IOException e) {
      status.setSynced(false);
      return;
    }
    List<PumpMember> members = new ArrayList<>();
    for (ClusterApi.PumpNode n : nodes) {
      if (podOf(ctx, n).isPresent()) {
        PumpMember m = new PumpMember();
        m.setNodeId(n.nodeId());
        m.setHost(n.host());
        m.setState(n.state());
        members.add(m);
      }
    }
    status.setMembers(members.isEmpty() ? null : members);
    status.setSynced(true);
  }

  /**
   * The pod a registered pump runs in: its host is {@code <pod>.<tc>-pump...:8250} for a pod
   * {@code <tc>-pump-<n>} of this cluster.
   */
  static Optional<String> podOf(ClusterContext ctx, ClusterApi.PumpNode node) {
    return podOf(ctx.name(), node.host());
  }

  static Optional<String> podOf(String cluster, String host) {
    String expected = "." + PumpObjects.serviceName(cluster);
    int dot = host.indexOf('.');
    if (dot <= 0) {
      return Optional.empty();
    }
    String pod = host.substring(0, dot);
    String rest = host.substring(dot);
    String prefix = Names.member(cluster, PumpObjects.COMPONENT) + "-";
    boolean ordinal = pod.startsWith(prefix) && pod.length() > prefix.length()
        && pod.substring(prefix.length()).chars().allMatch(Character::isDigit);
    boolean service = rest.startsWith(expected + ":") || rest.startsWith(expected + ".")
        || rest.equals(expected);
    return ordinal && service ? Optional.of(pod) : Optional.empty();
  }

  @Override
  protected MemberDecision scaleIn(ClusterContext ctx, Rollout rollout, int wanted) {
    int last = rollout.replicas() - 1;
    String pod = rollout.podName(last);
    PumpStatus status = statusOf(ctx.status());
    int stsPods = status.getStatefulSet() == null || status.getStatefulSet().getReplicas() == null
        ? 0 : status.getStatefulSet().getReplicas();
    Optional<ClusterApi.PumpNode> node = Optional.empty();
    if (status.getMembers() != null) {
      node = status.getMembers().stream()
          .filter(m -> podOf(ctx.name(), m.getHost()).filter(pod::equals).isPresent())
          .reduce((first, second) -> second)
          .map(m -> new ClusterApi.PumpNode(m.getNodeId(), m.getHost(), m.getState()));
    }
    return PumpScaleIn.decide(new PumpScaleIn.Facts(rollout.replicas(), wanted, stsPods, pod,
        rollout.pod(last), node, ctx.now()));
  }

  @Override
  protected MemberDecision upgrade(ClusterContext ctx, Rollout rollout) {
    Set<String> online = new TreeSet<>();
    PumpStatus status = statusOf(ctx.status());
    if (status.getMembers() != null) {
      status.getMembers().stream()
          .filter(m -> PumpScaleIn.ONLINE.equals(m.getState()))
          .forEach(m -> podOf(ctx.name(), m.getHost()).ifPresent(online::add));
    }
    return PumpUpgrade.decide(rollout, online);
  }
}
