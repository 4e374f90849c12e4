package io.tidb.operator.controller.tidbcluster.pipeline;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.tidb.operator.controller.runtime.OwnedObjects;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The persistent volume claims of one cluster's namespace and the cluster-scoped objects behind
 * them: StorageClasses (read only) and the PersistentVolumes bound to the claims (reclaim policy,
 * labels). The StatefulSet controller creates the claims; the operator marks, labels, resizes and
 * removes them.
 *
 * <p>Claims are read from the controller's informer ({@link #get}, {@link #list}), so a reconcile
 * with nothing to do reads nothing from the API server; every write is told to the informer's
 * cache, so the next reconcile sees it. A cache can still trail the API server (a claim the
 * StatefulSet controller just created or deleted), so a decision that deletes something, or that
 * is taken once and not repeated (marking a removed member's claims, recording a failed member's
 * claims), reads the claim from the API server with {@link #current}. Tests use an in-memory fake.
 */
public interface VolumeClaims {

  /** Makes the claims of one reconcile: its namespace and the controller's cached objects. */
  @FunctionalInterface
  interface Source {
    VolumeClaims of(String namespace, OwnedObjects cache);
  }

  /** The claim as the informer has it. */
  Optional<PersistentVolumeClaim> get(String name);

  /** The claim as the API server has it now: for decisions a stale cache must not make. */
  Optional<PersistentVolumeClaim> current(String name);

  /** The claims carrying every one of {@code labels}, by name, as the informer has them. */
  List<PersistentVolumeClaim> list(Map<String, String> labels);

  /** As {@link #list}, from the API server: for decisions a stale cache must not make. */
  List<PersistentVolumeClaim> currentList(Map<String, String> labels);

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
   * The PersistentVolume, read from the operator's cache of the volumes it labelled or else from
   * the API server (never to be changed: it may be the cache's own object), or empty when it does
   * not exist or the operator may not read it (a namespace-scoped install without a ClusterRole
   * for {@code persistentvolumes}). Callers that read volumes on every reconcile skip the ones {@link
   * #checkedVolumes} says are up to date.
   */
  Optional<PersistentVolume> volume(String name);

  /**
   * The PersistentVolume as the operator's cache of the volumes it labelled holds it, without
   * asking the API server (never to be changed: it is the cache's own object); empty when the
   * cache does not run or does not hold it. Free to read on every reconcile.
   */
  Optional<PersistentVolume> cachedVolume(String name);

  /** The volumes found right recently, shared by every reconcile of the controller. */
  CheckedVolumes checkedVolumes();

  /** Sets the PersistentVolume's {@code spec.persistentVolumeReclaimPolicy}. */
  void setReclaimPolicy(String volume, String policy);

  /**
   * Merges labels and annotations into the PersistentVolume's metadata and, when {@code policy}
   * is not null, sets its {@code spec.persistentVolumeReclaimPolicy}: one write for what a
   * volume needs when its claim is first bound.
   *
   * @return whether it was written, or the volume does not exist, or the operator may not patch
   *     volumes (a namespaced install without the ClusterRole)
   */
  VolumeWrite updateVolume(String volume, Map<String, String> labels, Map<String, String> annotations, String policy);

  /**
   * What a StorageClass allows.
   *
   * @param allowed {@code allowVolumeExpansion: true}
   * @param why in words, e.g. "StorageClass standard does not allow volume expansion"
   */
  record Expansion(boolean allowed, String why) {}

  /** What {@link #updateVolume} did. */
  enum VolumeWrite {
    WRITTEN,
    MISSING,
    FORBIDDEN
  }
}
