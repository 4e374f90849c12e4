package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.api.config.Cloner;
import java.util.Objects;

/**
 * The deep copy JOSDK makes of a primary before each reconcile, through Jackson's token buffer
 * ({@code convertValue}) with the Kubernetes client's own mapper. JOSDK's default, fabric8's
 * {@code clone}, writes the whole object to a JSON string and parses it back: the same
 * serializers, plus encoding and decoding text (in the settled controller's profile the copy
 * was 6 % of the CPU). A copy, never the cached object: JOSDK compares it with the original to
 * build its finalizer and status patches.
 */
final class TokenBufferCloner implements Cloner {

  private final KubernetesSerialization serialization;

  TokenBufferCloner(KubernetesSerialization serialization) {
    this.serialization = Objects.requireNonNull(serialization, "serialization");
  }

  @Override
  @SuppressWarnings("unchecked")
  public <R extends HasMetadata> R clone(R object) {
    return (R) serialization.convertValue(object, object.getClass());
  }
}
