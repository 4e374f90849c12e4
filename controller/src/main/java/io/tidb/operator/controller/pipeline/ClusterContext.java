package io.tidb.operator.controller.pipeline;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.controller.apply.ApplyOutcome;
import io.tidb.operator.controller.apply.ResourceApplier;
import io.tidb.operator.controller.desired.Component;
import io.tidb.operator.controller.event.EventRecorder;
import io.tidb.operator.controller.status.ReadyCondition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Everything one reconcile of one {@code TidbCluster} works with: the cluster with defaults
 * applied, the status being built, cached owned objects, the applier, Events, and the cluster's PD
 * and TiDB endpoints. Created per reconcile; not shared between threads.
 */
public final class ClusterContext {

  private final TidbCluster cluster;
  private final TidbClusterStatus status;
  private final OwnedObjects owned;
  private final ResourceApplier applier;
  private final EventRecorder events;
  private final ClusterEndpoints endpoints;
  private final Instant now;
  private final List<ReadyCondition.Observed> observed = new ArrayList<>();

  /**
   * @param cluster the cluster with defaults applied (never written back)
   * @param status the status being built, starting as a copy of the stored one
   */
  public ClusterContext(
      TidbCluster cluster,
      TidbClusterStatus status,
      OwnedObjects owned,
      ResourceApplier applier,
      EventRecorder events,
      ClusterEndpoints endpoints,
      Instant now) {
    this.cluster = cluster;
    this.status = status;
    this.owned = owned;
    this.applier = applier;
    this.events = events;
    this.endpoints = endpoints;
    this.now = now;
  }

  public TidbCluster cluster() {
    return cluster;
  }

  public String namespace() {
    return cluster.getMetadata().getNamespace();
  }

  public String name() {
    return cluster.getMetadata().getName();
  }

  public TidbClusterStatus status() {
    return status;
  }

  public OwnedObjects owned() {
    return owned;
  }

  public EventRecorder events() {
    return events;
  }

  public ClusterEndpoints endpoints() {
    return endpoints;
  }

  public Instant now() {
    return now;
  }

  public boolean paused() {
    return Boolean.TRUE.equals(cluster.getSpec().getPaused());
  }

  /**
   * Applies {@code desired} if it differs from the cached object, and records a Normal Event
   * ({@code SuccessfulCreate} or {@code SuccessfulUpdate}) for every write.
   */
  @SuppressWarnings("unchecked")
  public <R extends HasMetadata> ApplyOutcome apply(R desired) {
    Class<R> kind = (Class<R>) desired.getClass();
    Optional<R> actual = owned.get(kind, desired.getMetadata().getName());
    ApplyOutcome outcome =
        applier.apply(desired, actual, owned.cacheOf(kind), ResourceID.fromResource(cluster));
    if (outcome == ApplyOutcome.CREATED) {
      events.normal(
          cluster,
          "SuccessfulCreate",
          "create " + desired.getKind() + " " + desired.getMetadata().getName()
              + " in TidbCluster " + name() + " successful");
    } else if (outcome == ApplyOutcome.UPDATED) {
      events.normal(
          cluster,
          "SuccessfulUpdate",
          "update " + desired.getKind() + " " + desired.getMetadata().getName()
              + " in TidbCluster " + name() + " successful");
    }
    return outcome;
  }

  /**
   * Records a component the cluster's {@code Ready} condition must account for, with the replica
   * count the operator asked its StatefulSet for.
   */
  public void observed(ReadyCondition.Observed component) {
    observed.removeIf(o -> o.component() == component.component());
    observed.add(component);
  }

  public List<ReadyCondition.Observed> observedComponents() {
    return List.copyOf(observed);
  }

  public Optional<ReadyCondition.Observed> observed(Component component) {
    return observed.stream().filter(o -> o.component() == component).findFirst();
  }
}
