package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.api.reconciler.dependent.RecentOperationCacheFiller;
import io.tidb.operator.api.ApiObjects;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Catches a reconcile that modifies an object it read from an informer's cache (which every later
 * reconcile and every other controller would then see, with no change on the API server): an
 * {@link OwnedObjects} that remembers each cached object it hands out as JSON, and {@link
 * #verify()}, called when the reconcile's work ends, fails if any of them differs from what it was
 * when handed out. The same check as client-go's {@code KUBE_CACHE_MUTATION_DETECTOR}, and turned
 * on by the same environment variable ({@code KUBE_CACHE_MUTATION_DETECTOR=true}): it serialises
 * every object read, so the integration tests run with it and production does not.
 */
public final class CacheMutationDetector implements OwnedObjects {

  /** The environment variable that turns the detector on, client-go's name. */
  public static final String ENVIRONMENT_VARIABLE = "KUBE_CACHE_MUTATION_DETECTOR";

  private final OwnedObjects cache;
  private final Map<HasMetadata, String> handedOut = new IdentityHashMap<>();

  public CacheMutationDetector(OwnedObjects cache) {
    this.cache = cache;
  }

  /** Whether {@code environment} turns the detector on. */
  public static boolean enabled(Map<String, String> environment) {
    return "true".equalsIgnoreCase(environment.getOrDefault(ENVIRONMENT_VARIABLE, ""));
  }

  /** {@code cache} wrapped in a detector when {@code on}, else {@code cache} itself. */
  public static OwnedObjects watch(OwnedObjects cache, boolean on) {
    return on ? new CacheMutationDetector(cache) : cache;
  }

  /** Verifies {@code objects} if it is a detector; nothing otherwise. */
  public static void verify(OwnedObjects objects) {
    if (objects instanceof CacheMutationDetector detector) {
      detector.verify();
    }
  }

  /**
   * The primary as JSON when the detector is {@code on}, else null: a reconcile handed the cached
   * primary itself ({@link PrimaryCloner}) checks it with {@link #verifyUnchanged} when it ends, and
   * the shared defaulted copy of it with {@link #verifyDefaultedUnchanged}.
   */
  static String snapshot(HasMetadata primary, boolean on) {
    return on ? ApiObjects.toJson(primary) : null;
  }

  /**
   * Fails if {@code primary} differs from its {@link #snapshot}; nothing when the snapshot is null
   * (the detector is off).
   *
   * @throws IllegalStateException naming the modified primary
   */
  static void verifyUnchanged(HasMetadata primary, String snapshot) {
    verifyUnchanged(primary, snapshot, "its primary, the informer's cached object");
  }

  /**
   * Fails if the defaulted copy of a primary ({@link DefaultedPrimaries}, shared by the reconciles
   * of one version) differs from its {@link #snapshot}; nothing when the snapshot is null.
   *
   * @throws IllegalStateException naming the primary
   */
  static void verifyDefaultedUnchanged(HasMetadata defaulted, String snapshot) {
    verifyUnchanged(defaulted, snapshot,
        "the defaulted copy of its primary, which later reconciles of the same version reuse");
  }

  private static void verifyUnchanged(HasMetadata object, String snapshot, String what) {
    if (snapshot != null && changed(object, snapshot)) {
      throw new IllegalStateException(
          "the reconcile modified " + what + " (work on a copy): " + name(object));
    }
  }

  @Override
  public <R extends HasMetadata> Optional<R> get(Class<R> kind, String name) {
    Optional<R> found = cache.get(kind, name);
    found.ifPresent(this::remember);
    return found;
  }

  @Override
  public <R extends HasMetadata> List<R> list(Class<R> kind, Map<String, String> labels) {
    List<R> found = cache.list(kind, labels);
    found.forEach(this::remember);
    return found;
  }

  @Override
  public List<Pod> podsOf(String statefulSetName) {
    List<Pod> pods = cache.podsOf(statefulSetName);
    pods.forEach(this::remember);
    return pods;
  }

  @Override
  public <R extends HasMetadata> RecentOperationCacheFiller<R> cacheOf(Class<R> kind) {
    return cache.cacheOf(kind);
  }

  private void remember(HasMetadata object) {
    handedOut.computeIfAbsent(object, ApiObjects::toJson);
  }

  /**
   * Fails, naming each object, if any object handed out since this detector was made has changed.
   *
   * @throws IllegalStateException naming the modified cached objects
   */
  public void verify() {
    List<String> modified = new ArrayList<>();
    handedOut.forEach((object, json) -> {
      if (changed(object, json)) {
        modified.add(name(object));
      }
    });
    if (!modified.isEmpty()) {
      throw new IllegalStateException(
          "the reconcile modified objects in the informer cache (work on a copy): "
              + String.join(", ", modified));
    }
  }

  /** Whether {@code object} no longer serializes as {@code json}, its snapshot. */
  static boolean changed(Object object, String json) {
    return !json.equals(ApiObjects.toJson(object));
  }

  /** How a failure names an object: its kind, namespace and name. */
  static String name(HasMetadata object) {
    return object.getKind() + " " + object.getMetadata().getNamespace() + "/" + object.getMetadata().getName();
  }
}
