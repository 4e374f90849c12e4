package io.tidb.operator.controller.tidbcluster.member;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.ComponentStatus;
import io.tidb.operator.api.v1alpha1.cluster.MemberSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.controller.runtime.ApplyOutcome;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.runtime.OwnedFieldsMatcher;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import io.tidb.operator.controller.tidbcluster.pipeline.ComponentStep;
import io.tidb.operator.controller.tidbcluster.pipeline.Prerequisite;
import io.tidb.operator.controller.tidbcluster.pipeline.ReadyCondition;
import io.tidb.operator.controller.tidbcluster.pipeline.StepResult;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The part of a reconcile every StatefulSet member shares: phase, StatefulSet
 * status and image in status; Services, ConfigMap and StatefulSet applied in that order; scale-out
 * in bounded steps; scale-in refused and reported; Events for scaling and config changes.
 *
 * @param <S> the component's status type
 */
public abstract class MemberStep<S extends ComponentStatus> implements ComponentStep {

  /** Component condition type reporting a refused scale-in. */
  public static final String SCALE_IN_CONDITION = "ScaleIn";

  public static final String SCALE_IN_NOT_SUPPORTED = "ScaleInNotSupported";

  private static final Logger LOG = LoggerFactory.getLogger(MemberStep.class);

  private final Prerequisite prerequisite;

  /** @param prerequisite what another component must offer before this one starts */
  protected MemberStep(Prerequisite prerequisite) {
    this.prerequisite = prerequisite;
  }

  protected abstract Component component();

  /** The component's spec, or null when the cluster has none. */
  protected abstract MemberSpec spec(TidbCluster tc);

  /** The spec path of the component, for messages: {@code spec.tikv}. */
  protected String specPath() {
    return "spec." + component().label();
  }

  /** A human name for Events: PD, TiKV, TiDB. */
  protected abstract String displayName();

  protected abstract List<Service> services(TidbCluster tc);

  protected abstract ConfigMap configMap(TidbCluster tc, Optional<String> inUse);

  protected abstract StatefulSet statefulSet(TidbCluster tc, ConfigMap cm, StatefulSetPlan plan);

  /** How many replicas one reconcile may add. */
  protected abstract int scaleOutStep(TidbCluster tc);

  /** The component's section of the status, created when missing. */
  protected abstract S statusOf(TidbClusterStatus status);

  /** The component's own part of the cluster's {@code Ready} verdict. */
  public abstract ReadyCondition.ReadinessCheck readiness();

  /** Records what PD (or the component itself) reports about the members. */
  protected abstract void observeMembers(ClusterContext ctx, S status, Optional<StatefulSet> sts);

  @Override
  public String name() {
    return component().label();
  }

  @Override
  public boolean enabled(TidbCluster cluster) {
    return spec(cluster) != null;
  }

  @Override
  public final Optional<String> waitingFor(ClusterContext ctx) {
    return prerequisite.unmet(ctx);
  }

  protected final String statefulSetName(ClusterContext ctx) {
    return Names.member(ctx.name(), component());
  }

  protected final Optional<StatefulSet> existing(ClusterContext ctx) {
    return ctx.owned().get(StatefulSet.class, statefulSetName(ctx));
  }

  protected final ReplicaPlan plan(ClusterContext ctx, Optional<StatefulSet> sts) {
    Integer wanted = spec(ctx.cluster()).getReplicas();
    return ReplicaPlan.decide(
        wanted == null ? 0 : wanted,
        sts.map(s -> s.getSpec().getReplicas()),
        scaleOutStep(ctx.cluster()));
  }

  @Override
  public void observe(ClusterContext ctx) throws Exception {
    Optional<StatefulSet> sts = existing(ctx);
    ReplicaPlan plan = plan(ctx, sts);
    S status = statusOf(ctx.status());
    status.setPhase(ComponentPhase.of(plan.destination(), sts).value());
    status.setStatefulSet(sts.map(s -> ApiObjects.deepCopy(s.getStatus())).orElse(null));
    status.setImage(sts.flatMap(this::runningImage).orElse(null));
    ctx.observed(observed(plan, sts));
    observeMembers(ctx, status, sts);
  }

  @Override
  public void notReached(ClusterContext ctx) {
    Optional<StatefulSet> sts = existing(ctx);
    ctx.observed(observed(plan(ctx, sts), sts));
  }

  private ReadyCondition.Observed observed(ReplicaPlan plan, Optional<StatefulSet> sts) {
    return new ReadyCondition.Observed(
        component(),
        plan.destination(),
        sts.map(ComponentPhase::isUpToDate).orElse(false),
        readiness());
  }

  private Optional<String> runningImage(StatefulSet sts) {
    List<Container> containers = sts.getSpec().getTemplate().getSpec().getContainers();
    return containers.stream()
        .filter(c -> component().label().equals(c.getName()))
        .map(Container::getImage)
        .findFirst();
  }

  @Override
  public StepResult apply(ClusterContext ctx) throws Exception {
    TidbCluster tc = ctx.cluster();
    Optional<StatefulSet> existing = existing(ctx);
    for (Service service : services(tc)) {
      ctx.apply(service);
    }
    Optional<String> inUse = ConfigMapNames.inUse(existing.orElse(null));
    ConfigMap cm = configMap(tc, inUse);
    Optional<ConfigMap> cmBefore = ctx.owned().get(ConfigMap.class, cm.getMetadata().getName());
    ctx.apply(cm);

    ReplicaPlan plan = plan(ctx, existing);
    reportScaleIn(ctx, plan);
    StatefulSet desired = statefulSet(tc, cm, StatefulSetPlan.holding(plan.target()));
    existing.ifPresent(actual -> keepImmutableFields(ctx, desired, actual));
    ApplyOutcome outcome = ctx.apply(desired);

    if (plan.change() == ReplicaPlan.Change.SCALE_OUT && outcome.wrote()) {
      ctx.events()
          .normal(
              tc,
              "ScaledOut",
              displayName() + " scaled out from " + plan.current().orElse(0) + " to "
                  + plan.target() + " replicas (" + specPath() + ".replicas is "
                  + plan.wanted() + ")");
    }
    reportConfigChange(ctx, existing.isPresent(), inUse, cm, cmBefore);
    return afterApply(ctx, existing, outcome);
  }

  /** What the pipeline does after the StatefulSet was applied; by default it goes on. */
  protected StepResult afterApply(
      ClusterContext ctx, Optional<StatefulSet> before, ApplyOutcome outcome) {
    return StepResult.CONTINUE;
  }

  private void reportScaleIn(ClusterContext ctx, ReplicaPlan plan) {
    S status = statusOf(ctx.status());
    if (plan.change() != ReplicaPlan.Change.SCALE_IN_REFUSED) {
      status.setConditions(Conditions.remove(status.getConditions(), SCALE_IN_CONDITION));
      return;
    }
    String message =
        specPath() + ".replicas is " + plan.wanted() + " but " + displayName() + " runs "
            + plan.current().orElse(0) + "; scale-in is not supported yet, so the replicas stay"
            + " at " + plan.target() + " and no pod or volume is removed";
    boolean reported =
        Conditions.find(status.getConditions(), SCALE_IN_CONDITION)
            .filter(c -> Objects.equals(message, c.getMessage()))
            .isPresent();
    status.setConditions(
        Conditions.set(
            status.getConditions(),
            SCALE_IN_CONDITION,
            Conditions.FALSE,
            SCALE_IN_NOT_SUPPORTED,
            message,
            ctx.cluster().getMetadata().getGeneration(),
            ctx.now()));
    if (!reported) {
      ctx.events().warning(ctx.cluster(), SCALE_IN_NOT_SUPPORTED, message);
    }
  }

  private void reportConfigChange(
      ClusterContext ctx,
      boolean statefulSetExisted,
      Optional<String> inUse,
      ConfigMap cm,
      Optional<ConfigMap> cmBefore) {
    String name = cm.getMetadata().getName();
    if (!statefulSetExisted) {
      return;
    }
    if (inUse.isPresent() && !inUse.get().equals(name)) {
      ctx.events()
          .normal(
              ctx.cluster(),
              "ConfigChanged",
              displayName() + " config changed: StatefulSet " + statefulSetName(ctx)
                  + " now mounts ConfigMap " + name + " instead of " + inUse.get()
                  + " (configUpdateStrategy RollingUpdate)");
    } else if (cmBefore.isPresent() && !Objects.equals(cmBefore.get().getData(), cm.getData())) {
      ctx.events()
          .normal(
              ctx.cluster(),
              "ConfigChanged",
              displayName() + " config changed in place in ConfigMap " + name
                  + " (configUpdateStrategy InPlace); pods read it when they next restart");
    }
  }

  /**
   * A StatefulSet's volume claim templates cannot change once created. When the desired ones
   * differ (e.g. a new storage request), the existing ones are kept so the rest of the spec still
   * applies; resizing volumes is not done yet.
   */
  private void keepImmutableFields(ClusterContext ctx, StatefulSet desired, StatefulSet actual) {
    List<PersistentVolumeClaim> want = desired.getSpec().getVolumeClaimTemplates();
    List<PersistentVolumeClaim> have = actual.getSpec().getVolumeClaimTemplates();
    if (sameClaims(want, have)) {
      return;
    }
    LOG.info(
        "volume claim templates differ and are kept namespace={} statefulset={}",
        ctx.namespace(),
        actual.getMetadata().getName());
    desired
        .getSpec()
        .setVolumeClaimTemplates(
            have == null
                ? null
                : have.stream()
                    .map(
                        pvc -> {
                          PersistentVolumeClaim copy = ApiObjects.deepCopy(pvc);
                          copy.setStatus(null);
                          return copy;
                        })
                    .toList());
  }

  private static boolean sameClaims(
      List<PersistentVolumeClaim> want, List<PersistentVolumeClaim> have) {
    int wantSize = want == null ? 0 : want.size();
    int haveSize = have == null ? 0 : have.size();
    if (wantSize != haveSize) {
      return false;
    }
    for (int i = 0; i < wantSize; i++) {
      if (!OwnedFieldsMatcher.matches(want.get(i), Optional.of(have.get(i)), "")) {
        return false;
      }
    }
    return true;
  }
}
