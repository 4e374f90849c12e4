package io.tidb.operator.controller.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.RecentOperationCacheFiller;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.pipeline.OwnedObjects;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** {@link OwnedObjects} backed by the reconciler's JOSDK informers ({@link OwnedEventSources}). */
final class InformerOwnedObjects implements OwnedObjects {

  private final Context<TidbCluster> context;
  private final String namespace;

  InformerOwnedObjects(Context<TidbCluster> context, String namespace) {
    this.context = context;
    this.namespace = namespace;
  }

  @Override
  public <R extends HasMetadata> Optional<R> get(Class<R> kind, String name) {
    return informer(kind).get(new ResourceID(name, namespace));
  }

  @Override
  public List<Pod> podsOf(String statefulSetName) {
    return informer(Pod.class)
        .list(
            namespace,
            p -> OwnedEventSources.statefulSetOf(p).filter(statefulSetName::equals).isPresent())
        .sorted(Comparator.comparing(p -> p.getMetadata().getName()))
        .toList();
  }

  @Override
  public <R extends HasMetadata> RecentOperationCacheFiller<R> cacheOf(Class<R> kind) {
    return informer(kind);
  }

  @SuppressWarnings("unchecked")
  private <R extends HasMetadata> InformerEventSource<R, TidbCluster> informer(Class<R> kind) {
    return (InformerEventSource<R, TidbCluster>)
        context.eventSourceRetriever().getEventSourceFor(kind);
  }
}
