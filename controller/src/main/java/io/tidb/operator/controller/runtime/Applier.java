package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.dependent.RecentOperationCacheFiller;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.Optional;

/**
 * Brings one object to its desired state, writing only when the fields the operator owns differ.
 * {@link ServerSideApplier} is the real one; tests use an in-memory fake.
 */
public interface Applier {

  /**
   * Applies {@code desired} unless {@code actual} already matches it.
   *
   * @param actual the cached object of that name, if any
   * @param cache the informer cache of this kind, told about the write
   * @param primary the custom resource the object belongs to
   */
  <R extends HasMetadata> ApplyOutcome apply(
      R desired, Optional<R> actual, RecentOperationCacheFiller<R> cache, ResourceID primary);

  /**
   * Whether applying {@code desired} would leave {@code actual} as it is: the decision {@link
   * #apply} takes before it writes, asked without writing (e.g. whether a StatefulSet's template
   * is applied already).
   */
  default boolean matches(HasMetadata desired, HasMetadata actual) {
    return OwnedFieldsMatcher.matches(desired, Optional.of(actual), ServerSideApplier.FIELD_MANAGER);
  }
}
