package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.RecentOperationCacheFiller;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@link OwnedObjects} backed by a reconciler's JOSDK informers (one per kind, see {@link
 * OwnedEventSources}).
 *
 * @param <P> the primary resource
 */
public final class InformerOwnedObjects<P extends HasMetadata> implements OwnedObjects {

  private final Context<P> context;
  private final String namespace;

  public InformerOwnedObjects(Context<P> context, String namespace) {
    this.context = context;
    this.namespace = namespace;
  }

  @Override
  public <R extends HasMetadata> Optional<R> get(Class<R> kind, String name) {
    return informer(kind).get(new ResourceID(name, namespace));
  }

  /**
   * {@inheritDoc}
   *
   * <p>Labels naming an instance and a component are looked up in the informer's index of them
   * ({@link OwnedEventSources#COMPONENT_INDEX}), other labels by a scan of the namespace. The
   * informer's list does not see what the reconcile wrote and told the cache of ({@link
   * #cacheOf}); each object listed is looked up again, which does.
   */
  @Override
  public <R extends HasMetadata> List<R> list(Class<R> kind, Map<String, String> labels) {
    InformerEventSource<R, P> informer = informer(kind);
    Stream<R> candidates = OwnedEventSources.componentKey(namespace, labels)
        .map(key -> informer.byIndex(OwnedEventSources.COMPONENT_INDEX, key).stream())
        .orElseGet(() -> informer.list(namespace));
    return candidates
        .filter(o -> hasLabels(o, labels))
        .map(o -> informer.get(ResourceID.fromResource(o)).orElse(o))
        .sorted(Comparator.comparing(o -> o.getMetadata().getName()))
        .toList();
  }

  /** Whether {@code object} carries every one of {@code labels}. */
  static boolean hasLabels(HasMetadata object, Map<String, String> labels) {
    Map<String, String> have = object.getMetadata().getLabels();
    return labels.isEmpty()
        || (have != null && have.entrySet().containsAll(labels.entrySet()));
  }

  /**
   * {@inheritDoc}
   *
   * <p>From the pod informer's index by StatefulSet ({@link OwnedEventSources#indexedByStatefulSet}).
   */
  @Override
  public List<Pod> podsOf(String statefulSetName) {
    return informer(Pod.class)
        .byIndex(OwnedEventSources.STATEFULSET_INDEX, OwnedEventSources.instanceKey(namespace, statefulSetName))
        .stream()
        .sorted(Comparator.comparing(p -> p.getMetadata().getName()))
        .toList();
  }

  @Override
  public <R extends HasMetadata> RecentOperationCacheFiller<R> cacheOf(Class<R> kind) {
    return informer(kind);
  }

  @SuppressWarnings("unchecked")
  private <R extends HasMetadata> InformerEventSource<R, P> informer(Class<R> kind) {
    return (InformerEventSource<R, P>) context.eventSourceRetriever().getEventSourceFor(kind);
  }
}
