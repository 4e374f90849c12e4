package io.tidb.operator.controller.tidbcluster.pipeline;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.controller.runtime.ApplyOutcome;
import io.tidb.operator.controller.runtime.EventRecorder;
import io.tidb.operator.controller.runtime.OwnedObjects;
import io.tidb.operator.controller.runtime.ResourceContext;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One reconcile of one {@code TidbCluster}: the runtime's {@link ResourceContext} (cluster with
 * defaults, status being built, cached owned objects, applier, Events) plus the cluster's PD and
 * TiDB API and what each component reported for the {@code Ready} verdict. Created per reconcile;
 * not shared between threads.
 */
public final class ClusterContext {

  private final ResourceContext<TidbCluster, TidbClusterStatus> resource;
  private final ClusterApi api;
  private final VolumeClaims claims;
  private final Deletions deletions;
  private final NodeLabels nodes;
  private final List<ReadyCondition.Observed> observed = new ArrayList<>();
  private Duration recheckAfter;

  public ClusterContext(
      ResourceContext<TidbCluster, TidbClusterStatus> resource,
      ClusterApi api,
      VolumeClaims claims) {
    this(resource, api, claims, Deletions.NONE);
  }

  public ClusterContext(
      ResourceContext<TidbCluster, TidbClusterStatus> resource,
      ClusterApi api,
      VolumeClaims claims,
      Deletions deletions) {
    this(resource, api, claims, deletions, NodeLabels.NONE);
  }

  /** @param nodes the labels of the Nodes the cluster's pods run on */
  public ClusterContext(
      ResourceContext<TidbCluster, TidbClusterStatus> resource,
      ClusterApi api,
      VolumeClaims claims,
      Deletions deletions,
      NodeLabels nodes) {
    this.resource = resource;
    this.api = api;
    this.claims = claims;
    this.deletions = deletions;
    this.nodes = nodes;
  }

  /** The cluster with defaults applied (never written back). */
  public TidbCluster cluster() {
    return resource.resource();
  }

  public String namespace() {
    return resource.namespace();
  }

  public String name() {
    return resource.name();
  }

  /** The status being built, starting as a copy of the stored one. */
  public TidbClusterStatus status() {
    return resource.status();
  }

  public OwnedObjects owned() {
    return resource.owned();
  }

  public EventRecorder events() {
    return resource.events();
  }

  public ClusterApi api() {
    return api;
  }

  /**
   * Asks for this cluster to be reconciled again within {@code after} even without an event,
   * because a step has something to look at then (a volume to read once its provisioner is done
   * with it); the shortest of the asks wins. A converging cluster is requeued sooner anyway.
   */
  public void recheckWithin(Duration after) {
    if (after.isNegative() || after.isZero()) {
      after = Duration.ofSeconds(1);
    }
    if (recheckAfter == null || after.compareTo(recheckAfter) < 0) {
      recheckAfter = after;
    }
  }

  /** The shortest {@link #recheckWithin} a step asked for in this reconcile, if any. */
  public Optional<Duration> recheckAfter() {
    return Optional.ofNullable(recheckAfter);
  }

  /** The persistent volume claims of the cluster's namespace. */
  public VolumeClaims claims() {
    return claims;
  }

  /** Pod and StatefulSet deletions (the care annotations, suspend). */
  public NodeLabels nodes() {
    return nodes;
  }

  public Deletions deletions() {
    return deletions;
  }

  public Instant now() {
    return resource.now();
  }

  public boolean paused() {
    return Boolean.TRUE.equals(cluster().getSpec().getPaused());
  }

  /**
   * See {@link ResourceContext#derived}: what {@code make} builds from {@link #cluster} alone (and
   * the parts {@code key} names), built once per version of the cluster; never to be changed.
   */
  public <T> T derived(Object key, Supplier<T> make) {
    return resource.derived(key, make);
  }

  /** See {@link ResourceContext#apply}: writes only on a difference, with an Event per write. */
  public <R extends HasMetadata> ApplyOutcome apply(R desired) {
    return resource.apply(desired);
  }

  /** Whether applying {@code desired} would leave {@code actual} as it is. */
  public boolean matches(HasMetadata desired, HasMetadata actual) {
    return resource.matches(desired, actual);
  }

  /**
   * Records a component the cluster's {@code Ready} condition must account for, with the replica
   * count the operator asked its StatefulSet for.
   */
  public void observed(ReadyCondition.Observed component) {
    observed.removeIf(o -> o.component().equals(component.component()));
    observed.add(component);
  }

  public List<ReadyCondition.Observed> observedComponents() {
    return List.copyOf(observed);
  }

  public Optional<ReadyCondition.Observed> observed(Component component) {
    return observed.stream().filter(o -> o.component().equals(component)).findFirst();
  }

  /** Records what the operator is doing to a component already {@link #observed}. */
  public void activity(Component component, Activity activity) {
    observed(component).ifPresent(o -> observed(o.withActivity(activity)));
  }

  /**
   * The first component other than {@code component} that is being scaled or upgraded, in pipeline
   * order: a later component waits for it before it starts a scale-in or an upgrade of its own.
   */
  public Optional<ReadyCondition.Observed> busyOtherThan(Component component) {
    return observed.stream()
        .filter(o -> !o.component().equals(component) && o.activity().isPresent())
        .findFirst();
  }
}
