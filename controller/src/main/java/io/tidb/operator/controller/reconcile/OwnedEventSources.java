package io.tidb.operator.controller.reconcile;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.desired.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The informers behind the reconciler's reads: one per kind of object a {@code TidbCluster} owns,
 * each restricted to {@code app.kubernetes.io/managed-by=tidb-operator}. Owned objects map to their
 * cluster through the controller owner reference; pods through the StatefulSet that owns them.
 */
public final class OwnedEventSources {

  /** The label selector of every informer. */
  public static final String SELECTOR = Labels.MANAGED_BY + "=" + Labels.MANAGED_BY_VALUE;

  /** Kinds the operator creates and owns directly. */
  public static final List<Class<? extends HasMetadata>> OWNED_KINDS =
      List.of(
          StatefulSet.class,
          Service.class,
          ConfigMap.class,
          Deployment.class,
          ServiceAccount.class,
          Role.class,
          RoleBinding.class);

  private OwnedEventSources() {}

  public static List<EventSource<?, TidbCluster>> create(EventSourceContext<TidbCluster> context) {
    List<EventSource<?, TidbCluster>> sources = new ArrayList<>();
    for (Class<? extends HasMetadata> kind : OWNED_KINDS) {
      sources.add(owned(kind, context));
    }
    sources.add(
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(Pod.class, TidbCluster.class)
                .withLabelSelector(SELECTOR)
                .withSecondaryToPrimaryMapper(OwnedEventSources::clusterOfPod)
                .build(),
            context));
    return sources;
  }

  private static <R extends HasMetadata> InformerEventSource<R, TidbCluster> owned(
      Class<R> kind, EventSourceContext<TidbCluster> context) {
    return new InformerEventSource<>(
        InformerEventSourceConfiguration.from(kind, TidbCluster.class)
            .withLabelSelector(SELECTOR)
            .build(),
        context);
  }

  /**
   * The cluster a pod belongs to: its owner StatefulSet is named {@code <cluster>-<component>},
   * and the pod carries the component label.
   */
  static Set<ResourceID> clusterOfPod(Pod pod) {
    return statefulSetOf(pod)
        .flatMap(sts -> clusterOfStatefulSet(sts, pod.getMetadata().getLabels()))
        .map(cluster -> Set.of(new ResourceID(cluster, pod.getMetadata().getNamespace())))
        .orElse(Set.of());
  }

  /** The name of the StatefulSet that controls the pod. */
  static Optional<String> statefulSetOf(Pod pod) {
    List<OwnerReference> refs = pod.getMetadata().getOwnerReferences();
    if (refs == null) {
      return Optional.empty();
    }
    return refs.stream()
        .filter(r -> "StatefulSet".equals(r.getKind()) && Boolean.TRUE.equals(r.getController()))
        .map(OwnerReference::getName)
        .findFirst();
  }

  private static Optional<String> clusterOfStatefulSet(String sts, Map<String, String> labels) {
    String component = labels == null ? null : labels.get(Labels.COMPONENT);
    String suffix = "-" + component;
    if (component == null || !sts.endsWith(suffix) || sts.length() == suffix.length()) {
      return Optional.empty();
    }
    return Optional.of(sts.substring(0, sts.length() - suffix.length()));
  }
}
