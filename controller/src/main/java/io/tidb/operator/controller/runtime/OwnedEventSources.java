package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Informers for the objects a controller owns, from a list of kinds: each restricted to the
 * operator's {@code app.kubernetes.io/managed-by} label, caching only the operator's own
 * managedFields entry ({@link PrunedItemStore}), and mapped to its primary through the
 * controller owner reference. Pods, which the operator does not own directly, get a mapper of
 * the controller's choosing.
 */
public final class OwnedEventSources {

  /** The label every object the operator creates carries, and its value. */
  public static final String MANAGED_BY = "app.kubernetes.io/managed-by";

  public static final String MANAGED_BY_VALUE = "tidb-operator";

  /** The label naming the custom resource an object belongs to (its name or own instance label). */
  public static final String INSTANCE = "app.kubernetes.io/instance";

  /** The primary cache's index by {@code <namespace>/<instance>} ({@link #claims}). */
  static final String INSTANCE_INDEX = "tidb-operator-instance";

  /** The label naming an object's component (e.g. {@code pd}, {@code discovery}, {@code backup}). */
  public static final String COMPONENT = "app.kubernetes.io/component";

  /**
   * Every informer's index by {@code <namespace>/<instance>/<component>} of the objects carrying
   * both labels, for {@link InformerOwnedObjects#list}: listing one StatefulSet's claims by its
   * selector scanned every claim of the namespace, so a reconcile's cost grew with the number of
   * clusters in it.
   */
  static final String COMPONENT_INDEX = "tidb-operator-component";

  /** The label selector of every informer. */
  public static final String SELECTOR = MANAGED_BY + "=" + MANAGED_BY_VALUE;

  private OwnedEventSources() {}

  /**
   * The store of an informer that follows {@code context}'s controller's namespaces: a pruning one
   * unless they are several ({@link PrunedItemStore#forNamespaces}).
   */
  public static <R extends HasMetadata> PrunedItemStore<R> itemStore(EventSourceContext<?> context) {
    return PrunedItemStore.forNamespaces(
        context.getControllerConfiguration().getInformerConfig().getNamespaces());
  }

  /** One informer per kind, each mapped to its primary through the controller owner reference. */
  public static <P extends HasMetadata> List<EventSource<?, P>> owned(
      EventSourceContext<P> context, List<Class<? extends HasMetadata>> kinds) {
    List<EventSource<?, P>> sources = new ArrayList<>();
    for (Class<? extends HasMetadata> kind : kinds) {
      sources.add(owned(kind, context));
    }
    return sources;
  }

  /**
   * As {@link #owned(EventSourceContext, List)}, each informer further limited by {@code
   * extraSelector} (e.g. {@code app.kubernetes.io/component=monitor}), so a controller caches only
   * its own kind's objects.
   */
  public static <P extends HasMetadata> List<EventSource<?, P>> owned(
      EventSourceContext<P> context, List<Class<? extends HasMetadata>> kinds, String extraSelector) {
    List<EventSource<?, P>> sources = new ArrayList<>();
    for (Class<? extends HasMetadata> kind : kinds) {
      sources.add(owned(kind, context, SELECTOR + "," + extraSelector));
    }
    return sources;
  }

  /** The pod informers' index by {@code <namespace>/<controlling StatefulSet>} ({@link #indexedByStatefulSet}). */
  static final String STATEFULSET_INDEX = "tidb-operator-statefulset";

  /** An informer of the operator's pods, mapped to their primary by {@code mapper}. */
  public static <P extends HasMetadata> EventSource<?, P> pods(
      EventSourceContext<P> context, SecondaryToPrimaryMapper<Pod> mapper) {
    return indexedByStatefulSet(new InformerEventSource<>(
        InformerEventSourceConfiguration.from(Pod.class, context.getPrimaryResourceClass())
            .withLabelSelector(SELECTOR)
            .withItemStore(itemStore(context))
            .withSecondaryToPrimaryMapper(mapper)
            .build(),
        context));
  }

  /**
   * Indexes a pod informer by the StatefulSet that controls each pod, for {@link
   * OwnedObjects#podsOf}: a reconcile asks for one StatefulSet's pods several times, and scanning
   * every pod of the namespace for it made a reconcile's cost grow with the number of clusters
   * in the namespace (16 % of the reconcile threads' CPU with 30 clusters in one namespace). Call
   * before the informer starts.
   */
  public static <P extends HasMetadata> InformerEventSource<Pod, P> indexedByStatefulSet(
      InformerEventSource<Pod, P> pods) {
    pods.addIndexers(Map.of(
        STATEFULSET_INDEX, pod -> statefulSetOf(pod)
            .map(sts -> List.of(instanceKey(pod.getMetadata().getNamespace(), sts)))
            .orElse(List.of()),
        COMPONENT_INDEX, OwnedEventSources::componentKeys));
    return pods;
  }

  /**
   * An informer of the volume claims of the operator's StatefulSets (the StatefulSet controller
   * copies the selector's labels onto each claim, {@code managed-by} among them), limited by
   * {@code extraSelector} (e.g. {@code app.kubernetes.io/name=tidb-cluster}), each claim mapped
   * to the primaries in its namespace whose {@code instanceOf} is the claim's {@code
   * app.kubernetes.io/instance}: by an index of the primary cache, so a primary whose instance
   * label differs from its name (a Helm release) is found too.
   */
  public static <P extends HasMetadata> EventSource<?, P> claims(
      EventSourceContext<P> context, String extraSelector, Function<P, String> instanceOf) {
    IndexerResourceCache<P> primaries = context.getPrimaryCache();
    primaries.addIndexer(
        INSTANCE_INDEX,
        p -> List.of(instanceKey(p.getMetadata().getNamespace(), instanceOf.apply(p))));
    return byComponent(new InformerEventSource<>(
        InformerEventSourceConfiguration.from(
                PersistentVolumeClaim.class, context.getPrimaryResourceClass())
            .withLabelSelector(SELECTOR + "," + extraSelector)
            .withItemStore(itemStore(context))
            .withOnAddFilter(claim -> false)
            .withOnUpdateFilter(OwnedEventSources::claimChangeMatters)
            .withSecondaryToPrimaryMapper(
                claim -> instanceOf(claim)
                    .map(key -> primaries.byIndex(INSTANCE_INDEX, key).stream()
                        .map(ResourceID::fromResource)
                        .collect(Collectors.toSet()))
                    .orElse(Set.of()))
            .build(),
        context));
  }

  /**
   * Whether a claim's update is worth a reconcile of its cluster: it was bound to a volume (the
   * volume's policy and labels are set), its size or resize conditions moved (a resize reported),
   * or its deletion started (a volume replace or a scale-out waits for it). Everything else, above
   * all the StatefulSet and PV controllers' bookkeeping and the operator's own labels, only
   * updates the cache; a new claim too (the pod it is made for brings its own events), and a
   * deleted one always reconciles. The heartbeat reconciles every cluster anyway.
   */
  static boolean claimChangeMatters(PersistentVolumeClaim after, PersistentVolumeClaim before) {
    return !java.util.Objects.equals(volumeName(before), volumeName(after))
        || !java.util.Objects.equals(capacity(before), capacity(after))
        || !java.util.Objects.equals(conditions(before), conditions(after))
        || !java.util.Objects.equals(
            before.getMetadata().getDeletionTimestamp(), after.getMetadata().getDeletionTimestamp());
  }

  private static String volumeName(PersistentVolumeClaim c) {
    return c.getSpec() == null ? null : c.getSpec().getVolumeName();
  }

  private static Object capacity(PersistentVolumeClaim c) {
    return c.getStatus() == null ? null : c.getStatus().getCapacity();
  }

  private static Object conditions(PersistentVolumeClaim c) {
    return c.getStatus() == null ? null : c.getStatus().getConditions();
  }

  /** {@code <namespace>/<instance>} of an object carrying the instance label. */
  static Optional<String> instanceOf(HasMetadata object) {
    Map<String, String> labels = object.getMetadata().getLabels();
    String instance = labels == null ? null : labels.get(INSTANCE);
    return instance == null || instance.isEmpty()
        ? Optional.empty()
        : Optional.of(instanceKey(object.getMetadata().getNamespace(), instance));
  }

  static String instanceKey(String namespace, String instance) {
    return namespace + "/" + instance;
  }

  private static <R extends HasMetadata, P extends HasMetadata> InformerEventSource<R, P> owned(
      Class<R> kind, EventSourceContext<P> context) {
    return owned(kind, context, SELECTOR);
  }

  private static <R extends HasMetadata, P extends HasMetadata> InformerEventSource<R, P> owned(
      Class<R> kind, EventSourceContext<P> context, String selector) {
    var configuration = InformerEventSourceConfiguration.from(kind, context.getPrimaryResourceClass())
        .withLabelSelector(selector)
        .withItemStore(itemStore(context));
    if (Deployment.class.equals(kind)) {
      configuration.withOnUpdateFilter(OwnedEventSources::beyondStatus);
    }
    return byComponent(new InformerEventSource<>(configuration.build(), context));
  }

  /**
   * Whether an update changed more than the object's status: its spec (a new generation), its
   * labels, annotations, owners, finalizers or its deletion. The filter of the Deployments'
   * informers: no controller reads a Deployment's status (discovery's readiness is PD's
   * business), and the Deployment controller writes it three or four times per rollout, each a
   * reconcile of the whole cluster.
   */
  static <R extends HasMetadata> boolean beyondStatus(R after, R before) {
    var a = after.getMetadata();
    var b = before.getMetadata();
    return !java.util.Objects.equals(a.getGeneration(), b.getGeneration())
        || !java.util.Objects.equals(a.getLabels(), b.getLabels())
        || !java.util.Objects.equals(a.getAnnotations(), b.getAnnotations())
        || !java.util.Objects.equals(a.getOwnerReferences(), b.getOwnerReferences())
        || !java.util.Objects.equals(a.getFinalizers(), b.getFinalizers())
        || !java.util.Objects.equals(a.getDeletionTimestamp(), b.getDeletionTimestamp());
  }

  /** Adds the {@link #COMPONENT_INDEX} to an informer; call before it starts. */
  private static <R extends HasMetadata, P extends HasMetadata> InformerEventSource<R, P> byComponent(
      InformerEventSource<R, P> informer) {
    informer.addIndexers(Map.of(COMPONENT_INDEX, OwnedEventSources::componentKeys));
    return informer;
  }

  /** The {@link #COMPONENT_INDEX} keys of an object: one, or none without both labels. */
  static List<String> componentKeys(HasMetadata object) {
    return componentKey(object.getMetadata().getNamespace(), object.getMetadata().getLabels())
        .map(List::of)
        .orElse(List.of());
  }

  /**
   * {@code <namespace>/<instance>/<component>} of {@code labels}, when they name both (a
   * selector that does can be answered from the {@link #COMPONENT_INDEX}).
   */
  static Optional<String> componentKey(String namespace, Map<String, String> labels) {
    String instance = labels == null ? null : labels.get(INSTANCE);
    String component = labels == null ? null : labels.get(COMPONENT);
    if (instance == null || component == null) {
      return Optional.empty();
    }
    return Optional.of(namespace + "/" + instance + "/" + component);
  }

  /** The name of the StatefulSet that controls the pod. */
  public static Optional<String> statefulSetOf(Pod pod) {
    List<OwnerReference> refs = pod.getMetadata().getOwnerReferences();
    if (refs == null) {
      return Optional.empty();
    }
    return refs.stream()
        .filter(r -> "StatefulSet".equals(r.getKind()) && Boolean.TRUE.equals(r.getController()))
        .map(OwnerReference::getName)
        .findFirst();
  }
}
