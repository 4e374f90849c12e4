package io.tidb.operator.controller.tidbcluster.tiproxy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.MemberSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.api.v1alpha1.cluster.TiproxyMember;
import io.tidb.operator.api.v1alpha1.cluster.TiproxyStatus;
import io.tidb.operator.controller.tidbcluster.member.DesiredMembers;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.MemberStep;
import io.tidb.operator.controller.tidbcluster.member.Names;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import io.tidb.operator.controller.tidbcluster.pipeline.Prerequisite;
import io.tidb.operator.controller.tidbcluster.pipeline.ReadyCondition;
import io.tidb.operator.controller.tidbcluster.pipeline.StepResult;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TiProxy: the client and peer Services, ConfigMap and StatefulSet; {@code
 * status.tiproxy.members} from each pod's {@code GET :3080/api/debug/health} (healthy when it
 * answers, its answer kept as {@code info}, {@code lastTransitionTime} moved only when the health
 * changes). Scaled one pod at a time; its own scaling blocks its upgrade; the upgrade waits for
 * each new pod to be Ready for {@value #MIN_READY_ANNOTATION} seconds ({@link TiproxyUpgrade}).
 * Runs right after PD (upstream's order) and waits for nothing. Before scaling or upgrading,
 * each healthy TiProxy of v1.1.0 or later is told its zone labels ({@link TiproxyLabels}), from
 * PD's {@code location-labels} and the labels of its pod's Node, as upstream does on every pass.
 */
public final class TiproxyStep extends MemberStep<TiproxyStatus> {

  private static final Logger LOG = LoggerFactory.getLogger(TiproxyStep.class);

  /** Upstream's {@code Ready} reason when a TiProxy member is not healthy. */
  public static final String TIPROXY_UNHEALTHY = "TiProxyUnhealthy";

  /** Upstream's annotation: how long an upgraded TiProxy pod stays Ready before the next goes. */
  public static final String MIN_READY_ANNOTATION = "tiproxy.pingcap.com/tiproxy-min-ready-seconds";

  /** @param before what must be there before TiProxy starts (upstream: nothing) */
  public TiproxyStep(Prerequisite before) {
    super(before);
  }

  @Override
  protected Component component() {
    return TiproxyObjects.COMPONENT;
  }

  @Override
  protected MemberSpec spec(TidbCluster tc) {
    return tc.getSpec().getTiproxy();
  }

  @Override
  protected String displayName() {
    return "TiProxy";
  }

  @Override
  public ReadyCondition.ReadinessCheck readiness() {
    return ReadyCondition.requiring(
        (status, desired) -> status.getTiproxy() != null
            && Boolean.TRUE.equals(status.getTiproxy().getSynced())
            && DesiredMembers.exactly(status.getTiproxy().getMembers(), desired,
                m -> Boolean.TRUE.equals(m.getHealth())),
        TIPROXY_UNHEALTHY,
        "TiProxy(s) are not healthy");
  }

  @Override
  protected List<Service> services(TidbCluster tc) {
    return List.of(TiproxyObjects.clientService(tc), TiproxyObjects.peerService(tc));
  }

  @Override
  protected ConfigMap configMap(TidbCluster tc, Optional<String> inUse) {
    return TiproxyObjects.configMap(tc, inUse);
  }

  @Override
  protected StatefulSet statefulSet(TidbCluster tc, ConfigMap cm, StatefulSetPlan plan) {
    return TiproxyObjects.statefulSet(tc, cm, plan);
  }

  /** Upstream scales TiProxy one pod at a time. */
  @Override
  protected int scaleOutStep(TidbCluster tc) {
    return 1;
  }

  @Override
  protected TiproxyStatus statusOf(TidbClusterStatus status) {
    if (status.getTiproxy() == null) {
      status.setTiproxy(new TiproxyStatus());
    }
    return status.getTiproxy();
  }

  /** Each pod's health; a pod that does not answer is unhealthy. */
  @Override
  protected void observeMembers(ClusterContext ctx, TiproxyStatus status,
      Optional<StatefulSet> sts) {
    int replicas = sts.map(s -> s.getSpec().getReplicas() == null ? 0 : s.getSpec().getReplicas())
        .orElse(0);
    Map<String, TiproxyMember> before = status.getMembers() == null ? Map.of() : status.getMembers();
    Map<String, TiproxyMember> members = new TreeMap<>();
    for (int i = 0; i < replicas; i++) {
      String pod = Names.pod(ctx.name(), TiproxyObjects.COMPONENT, i);
      TiproxyMember m = new TiproxyMember();
      m.setName(pod);
      try {
        m.setInfo(ctx.api().tiproxyHealth(pod));
        m.setHealth(true);
      } catch (IOException e) {
        m.setHealth(false);
      }
      members.put(pod, TiproxyHealth.keepTransitionTime(m, before.get(pod), ctx.now()));
    }
    status.setMembers(members.isEmpty() ? null : members);
    status.setSynced(true);
  }

  @Override
  public StepResult apply(ClusterContext ctx) throws Exception {
    if (existing(ctx).isPresent()) {
      setLabels(ctx);
    }
    return super.apply(ctx);
  }

  /**
   * Upstream's {@code setLabelsForTiProxy}: a failure is logged and the step goes on (labels are
   * a routing hint; they never block scaling or an upgrade).
   */
  private void setLabels(ClusterContext ctx) {
    TiproxyStatus status = ctx.status().getTiproxy();
    if (status == null || status.getMembers() == null
        || !TiproxyLabels.supported(TiproxyLabels.versionOf(TiproxyObjects.image(ctx.cluster())))) {
      return;
    }
    List<String> healthy = status.getMembers().values().stream()
        .filter(m -> Boolean.TRUE.equals(m.getHealth())).map(TiproxyMember::getName).toList();
    if (healthy.isEmpty()) {
      return;
    }
    List<String> locationLabels;
    try {
      locationLabels = ctx.api().locationLabels();
    } catch (IOException e) {
      LOG.warn("tiproxy labels not set namespace={} cluster={} reason=\"PD config: {}\"",
          ctx.namespace(), ctx.name(), e.getMessage());
      return;
    }
    Optional<String> zoneLabel = TiproxyLabels.zoneLabel(locationLabels);
    if (zoneLabel.isEmpty()) {
      return;
    }
    Map<String, Pod> pods = new TreeMap<>();
    for (Pod p : ctx.owned().podsOf(statefulSetName(ctx))) {
      pods.put(p.getMetadata().getName(), p);
    }
    for (String name : healthy) {
      Pod pod = pods.get(name);
      String node = pod == null || pod.getSpec() == null ? null : pod.getSpec().getNodeName();
      if (node == null || node.isEmpty()) {
        continue;
      }
      Optional<Map<String, String>> labels = ctx.nodes().of(node)
          .flatMap(n -> TiproxyLabels.forNode(locationLabels, zoneLabel.get(), n));
      if (labels.isEmpty()) {
        continue;
      }
      try {
        ctx.api().setTiproxyLabels(name, labels.get());
        LOG.debug("tiproxy labels set namespace={} cluster={} pod={} labels={}",
            ctx.namespace(), ctx.name(), name, labels.get());
      } catch (IOException e) {
        LOG.warn("tiproxy labels not set namespace={} cluster={} pod={} reason=\"{}\"",
            ctx.namespace(), ctx.name(), name, e.getMessage());
      }
    }
  }

  @Override
  protected MemberDecision scaleIn(ClusterContext ctx, Rollout rollout, int wanted) {
    return TiproxyUpgrade.scaleIn(rollout.replicas(), wanted);
  }

  @Override
  protected MemberDecision upgrade(ClusterContext ctx, Rollout rollout) {
    return TiproxyUpgrade.decide(rollout,
        annotationInt(ctx.cluster(), MIN_READY_ANNOTATION).orElse(0), ctx.now());
  }
}
