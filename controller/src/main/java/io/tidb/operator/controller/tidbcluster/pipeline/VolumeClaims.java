package io.tidb.operator.controller.tidbcluster.pipeline;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The persistent volume claims of one cluster's namespace, read from and written to the API server
 * directly (the StatefulSet controller creates them; the operator only marks, resizes and removes
 * them, so no informer is kept), and the cluster-scoped objects behind them: StorageClasses (read
 * only) and the PersistentVolumes bound to the claims (reclaim policy). Tests use an in-memory
 * fake.
 */
public interface VolumeClaims {

  Optional<PersistentVolumeClaim> get(String name);

  /** The claims carrying every one of {@code labels}, by name. */
  List<PersistentVolumeClaim> list(Map<String, String> labels);

  /** Merges one annotation into the claim; a claim that is gone is left alone. */
  void annotate(String name, String key, String value);

  /**
   * Deletes the claim if it still has {@code uid} (so a claim recreated meanwhile for a new pod is
   * never deleted by mistake).
   */
  void delete(String name, String uid);

  /** Sets the claim's storage request ({@code spec.resources.requests.storage}). */
  void resize(String name, Quantity size);

  /** Merges one label into the claim; a claim that is gone is left alone. */
  void label(String name, String key, String value);

  /**
   * Whether claims of {@code storageClassName} may be expanded; {@code null} (a claim naming no
   * class) asks about the cluster's default StorageClass.
   */
  Expansion expansion(String storageClassName);

  /**
   * The PersistentVolume, or empty when it does not exist or the operator may not read it (a
   * namespace-scoped install without a ClusterRole for {@code persistentvolumes}).
   */
  Optional<PersistentVolume> volume(String name);

  /** Sets the PersistentVolume's {@code spec.persistentVolumeReclaimPolicy}. */
  void setReclaimPolicy(String volume, String policy);

  /** Merges labels and annotations into the PersistentVolume's metadata. */
  void labelVolume(String volume, Map<String, String> labels, Map<String, String> annotations);

  /**
   * What a StorageClass allows.
   *
   * @param allowed {@code allowVolumeExpansion: true}
   * @param why in words, e.g. "StorageClass standard does not allow volume expansion"
   */
  record Expansion(boolean allowed, String why) {}
}
