package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.api.config.Cloner;
import java.util.Objects;
import java.util.Set;

/**
 * The copy JOSDK makes of a primary before each reconcile. None for the kinds whose reconciler
 * only reads what JOSDK hands it ({@link ValidatingReconciler#readsPrimaryOnly}): the skeleton
 * copies the status it builds and defaults a copy of the spec, and JOSDK itself changes the object
 * only to add or remove a finalizer, which such a controller has none of. In the settled
 * controller's profile (30 clusters) this copy was 17 % of a reconcile's CPU. For every other kind,
 * a deep copy through Jackson's token buffer ({@code convertValue}) with the Kubernetes client's
 * own mapper: JOSDK's default, fabric8's {@code clone}, writes the whole object to a JSON string
 * and parses it back, the same serializers plus encoding and decoding text. JOSDK compares that
 * copy with the cached original to build its finalizer patches.
 *
 * <p>The integration tests run the cache mutation detector, which also fails a reconcile that
 * changes an uncopied primary ({@link CacheMutationDetector#snapshot}).
 */
final class PrimaryCloner implements Cloner {

  private final KubernetesSerialization serialization;
  private final Set<Class<?>> readOnly;

  /**
   * @param readOnly the primary kinds handed to their reconciler as the cached object itself
   */
  PrimaryCloner(KubernetesSerialization serialization, Set<Class<?>> readOnly) {
    this.serialization = Objects.requireNonNull(serialization, "serialization");
    this.readOnly = Set.copyOf(readOnly);
  }

  @Override
  @SuppressWarnings("unchecked")
  public <R extends HasMetadata> R clone(R object) {
    if (readOnly.contains(object.getClass())) {
      return object;
    }
    return (R) serialization.convertValue(object, object.getClass());
  }
}
