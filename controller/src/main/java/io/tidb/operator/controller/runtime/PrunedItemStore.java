package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.javaoperatorsdk.operator.api.config.informer.InformerConfiguration;
import io.tidb.operator.api.ApiObjects;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * An informer's store that keeps of each object's {@code managedFields} only the entry the
 * operator's own server-side apply made ({@link ServerSideApplier#FIELD_MANAGER}, operation
 * {@code Apply}, no subresource): the one entry the controller reads ({@link OwnedFieldsMatcher}'s
 * "nothing dropped" check). The other managers' entries (the StatefulSet controller's on every
 * pod, the kubelet's status, the scheduler's) are often a third of a cached object, and every
 * cached object is held, and walked by each full garbage collection, for as long as it exists.
 *
 * <p>Through the controller's own JSON mapping the other entries are already left out as objects
 * are read ({@code ApiObjects.keepOnlyManagedFieldsOf}, which {@link OperatorRuntime} turns on);
 * the store still prunes objects read by a client with another mapping.
 *
 * <p>An object is pruned as it is stored, before the informer hands it to the event handlers; it
 * is the informer's own copy, fresh from the watch, so no one else holds it yet. Then it is
 * compacted ({@link CachedObjectCompactor}): its short strings shared with every other cached
 * object, its empty maps of unknown properties one shared immutable map, the kept entry's field
 * set in about half the memory ({@link CompactFieldSets}).
 *
 * <p><b>One informer per store.</b> fabric8's informer treats its store as its own: after each full
 * list it removes, and reports deleted, every stored object the list did not return. JOSDK gives
 * the one store of an informer configuration to each of the informers it starts for it, one per
 * watched namespace, so with two namespaces the second's list removed the first's objects from the
 * cache (at every start, and at every re-list after a watch expired) until they changed again.
 * {@link #forNamespaces} therefore gives a store only to a configuration that starts one informer
 * (all namespaces, or a single one); several namespaces keep fabric8's own store per informer,
 * unpruned.
 *
 * @param <R> the kind
 */
public final class PrunedItemStore<R extends HasMetadata> implements ItemStore<R> {

  private final BasicItemStore<R> store = new BasicItemStore<>(Cache::metaNamespaceKeyFunc);

  /**
   * A pruning store for an informer configuration that watches {@code namespaces} (JOSDK's, where
   * {@link InformerConfiguration#allNamespacesWatched} means one informer for all), or {@code
   * null}, fabric8's store per informer, when they are several: see "One informer per store" above.
   */
  public static <R extends HasMetadata> PrunedItemStore<R> forNamespaces(Set<String> namespaces) {
    return InformerConfiguration.allNamespacesWatched(namespaces) || namespaces.size() == 1
        ? new PrunedItemStore<>()
        : null;
  }

  /**
   * Removes from {@code object} every managedFields entry but the operator's own apply entry and
   * returns the object. Pure apart from that change.
   */
  static <R extends HasMetadata> R prune(R object) {
    if (object.getMetadata() == null) {
      return object;
    }
    List<ManagedFieldsEntry> entries = object.getMetadata().getManagedFields();
    if (entries == null || entries.isEmpty()) {
      return object;
    }
    object.getMetadata().setManagedFields(entries.stream().filter(PrunedItemStore::kept).toList());
    return object;
  }

  private static boolean kept(ManagedFieldsEntry entry) {
    return ApiObjects.ownApplyEntry(entry, ServerSideApplier.FIELD_MANAGER);
  }

  @Override
  public String getKey(R object) {
    return store.getKey(object);
  }

  @Override
  public R put(String key, R object) {
    return store.put(key, CachedObjectCompactor.compact(prune(object)));
  }

  @Override
  public R remove(String key) {
    return store.remove(key);
  }

  @Override
  public Stream<String> keySet() {
    return store.keySet();
  }

  @Override
  public Stream<R> values() {
    return store.values();
  }

  @Override
  public int size() {
    return store.size();
  }

  @Override
  public R get(String key) {
    return store.get(key);
  }
}
