package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.tidb.operator.api.ApiObjects;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Objects built from one version of a primary's defaulted copy alone (a component's Services and
 * ConfigMap, say), kept with that copy by {@link DefaultedPrimaries}: the reconciles of a settled
 * resource, which see the same version, build them once. A new version of the primary comes with
 * a new, empty set.
 *
 * <p>Only what a pure function of the defaulted copy (and of the parts named in its key) gives may
 * be kept here, and, as with the copy itself, no one may change what they are handed. With {@code
 * detectMutations} on (the cache mutation detector), each desired object is remembered as JSON when
 * built and {@link #verifyUnchanged} fails naming any that changed since.
 */
public final class DerivedObjects {

  private final Map<Object, Object> values = new ConcurrentHashMap<>();
  private final Map<Object, String> snapshots;

  /** @param detectMutations remember each object as JSON to check it with {@link #verifyUnchanged} */
  public DerivedObjects(boolean detectMutations) {
    this.snapshots = detectMutations ? new ConcurrentHashMap<>() : null;
  }

  /**
   * The value kept under {@code key}, else {@code make}'s (then kept). The key names everything
   * besides the defaulted copy that the value depends on.
   */
  @SuppressWarnings("unchecked")
  public <T> T get(Object key, Supplier<T> make) {
    Object kept = values.get(key);
    if (kept != null) {
      return (T) kept;
    }
    T made = make.get();
    // JOSDK never reconciles one primary on two threads at once: no other thread makes this key.
    values.put(key, made);
    if (snapshots != null) {
      snapshots.put(key, ApiObjects.toJson(made));
    }
    return made;
  }

  /**
   * Fails if a kept object no longer serializes as it did when made; nothing when the detector is
   * off.
   *
   * @throws IllegalStateException naming the changed objects
   */
  public void verifyUnchanged() {
    if (snapshots == null) {
      return;
    }
    List<String> changed = new ArrayList<>();
    values.forEach((key, value) -> {
      if (CacheMutationDetector.changed(value, snapshots.get(key))) {
        changed.add(value instanceof HasMetadata o ? CacheMutationDetector.name(o) : String.valueOf(key));
      }
    });
    if (!changed.isEmpty()) {
      throw new IllegalStateException(
          "the reconcile modified objects built once for this version of its primary, which later"
              + " reconciles reuse (work on a copy): " + changed);
    }
  }
}
