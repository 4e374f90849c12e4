package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.api.reconciler.dependent.RecentOperationCacheFiller;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Read access to the cached objects a custom resource owns, and the caches to tell of writes. */
public interface OwnedObjects {

  /** The cached object of {@code kind} named {@code name} in the resource's namespace. */
  <R extends HasMetadata> Optional<R> get(Class<R> kind, String name);

  /**
   * The cached objects of {@code kind} in the resource's namespace carrying every one of {@code
   * labels}, by name.
   */
  <R extends HasMetadata> List<R> list(Class<R> kind, Map<String, String> labels);

  /** The pods of one of the resource's StatefulSets, by StatefulSet name. */
  List<Pod> podsOf(String statefulSetName);

  /** The cache to inform after writing an object of {@code kind}. */
  <R extends HasMetadata> RecentOperationCacheFiller<R> cacheOf(Class<R> kind);
}
