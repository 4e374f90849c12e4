package io.tidb.operator.controller.tidbcluster;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.controller.runtime.MergePatch;
import io.tidb.operator.controller.runtime.OwnedObjects;
import io.tidb.operator.controller.tidbcluster.pipeline.CheckedVolumes;
import io.tidb.operator.controller.tidbcluster.pipeline.VolumeClaims;
import java.net.HttpURLConnection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link VolumeClaims} of one namespace: claims read from the controller's informer (or, for
 * {@link #current}, the API server), written to the API server with merge patches whose answer
 * goes into the informer's cache; volumes read from the cache of labelled ones ({@link
 * LabelledVolumes}) or the API server, StorageClasses from the API server.
 */
public final class KubeVolumeClaims implements VolumeClaims {

  /** Annotation marking the cluster's default StorageClass. */
  static final String DEFAULT_CLASS = "storageclass.kubernetes.io/is-default-class";

  private static final Logger LOG = LoggerFactory.getLogger(KubeVolumeClaims.class);
  private static final AtomicBoolean PV_FORBIDDEN_LOGGED = new AtomicBoolean();

  private final KubernetesClient client;
  private final String namespace;
  private final OwnedObjects cache;
  private final CheckedVolumes checked;
  private final Optional<LabelledVolumes> volumes;

  /**
   * @param cache the controller's informers, one of them of claims ({@link
   *     io.tidb.operator.controller.runtime.OwnedEventSources#claims})
   * @param checked the controller's volumes found right
   */
  public KubeVolumeClaims(
      KubernetesClient client, String namespace, OwnedObjects cache, CheckedVolumes checked) {
    this(client, namespace, cache, checked, Optional.empty());
  }

  /** @param volumes the labelled volumes' cache, read before the API server */
  KubeVolumeClaims(KubernetesClient client, String namespace, OwnedObjects cache,
      CheckedVolumes checked, Optional<LabelledVolumes> volumes) {
    this.client = client;
    this.namespace = namespace;
    this.cache = cache;
    this.checked = checked;
    this.volumes = volumes;
  }

  /** The claims of a controller: one {@link CheckedVolumes} for all its reconciles. */
  public static Source source(KubernetesClient client) {
    CheckedVolumes checked = new CheckedVolumes();
    return (namespace, cache) -> new KubeVolumeClaims(client, namespace, cache, checked);
  }

  /** As {@link #source(KubernetesClient)}, volumes read from {@code volumes} when it has them. */
  public static Source source(KubernetesClient client, LabelledVolumes volumes) {
    CheckedVolumes checked = new CheckedVolumes();
    return (namespace, cache) ->
        new KubeVolumeClaims(client, namespace, cache, checked, Optional.of(volumes));
  }

  @Override
  public Optional<PersistentVolumeClaim> get(String name) {
    return cache.get(PersistentVolumeClaim.class, name);
  }

  @Override
  public Optional<PersistentVolumeClaim> current(String name) {
    return Optional.ofNullable(
        client.persistentVolumeClaims().inNamespace(namespace).withName(name).get());
  }

  @Override
  public List<PersistentVolumeClaim> list(Map<String, String> labels) {
    return cache.list(PersistentVolumeClaim.class, labels);
  }

  @Override
  public List<PersistentVolumeClaim> currentList(Map<String, String> labels) {
    return client.persistentVolumeClaims().inNamespace(namespace).withLabels(labels).list()
        .getItems().stream()
        .sorted(Comparator.comparing(p -> p.getMetadata().getName()))
        .toList();
  }

  @Override
  public void annotate(String name, String key, String value) {
    patchIfPresent(name, Map.of("metadata", Map.of("annotations", Map.of(key, value))));
  }

  @Override
  public void delete(String name, String uid) {
    Optional<PersistentVolumeClaim> current = current(name);
    if (current.isEmpty() || !uid.equals(current.get().getMetadata().getUid())) {
      return;
    }
    client.resource(current.get()).delete();
  }

  @Override
  public void resize(String name, Quantity size) {
    patch(name, Map.of(
        "spec", Map.of("resources", Map.of("requests", Map.of("storage", size.toString())))));
  }

  @Override
  public void label(String name, String key, String value) {
    patchIfPresent(name, Map.of("metadata", Map.of("labels", Map.of(key, value))));
  }

  private void patchIfPresent(String name, Map<String, Object> patch) {
    try {
      patch(name, patch);
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
        throw e;
      }
    }
  }

  /**
   * Merge-patches the claim and puts the answer into the informer's cache (when the cache had the
   * claim: the answer then replaces that version, never a newer one). The version replaced is the
   * one read before the patch: read after it, it could already be the answer's own version (its
   * watch event arrived first), and JOSDK would then hold an unpruned copy of the answer besides
   * the informer's until the claim's next event (110 of 180 claims in a benchmark's heap dump).
   */
  private void patch(String name, Map<String, Object> patch) {
    Optional<PersistentVolumeClaim> before = get(name);
    PersistentVolumeClaim patched = MergePatch.patch(
        client, PersistentVolumeClaim.class, namespace, name, ApiObjects.toJson(patch));
    if (patched != null && before.isPresent()) {
      cache.cacheOf(PersistentVolumeClaim.class)
          .handleRecentResourceUpdate(ResourceID.fromResource(patched), patched, before.get());
    }
  }

  @Override
  public Expansion expansion(String storageClassName) {
    try {
      if (storageClassName == null || storageClassName.isEmpty()) {
        Optional<StorageClass> byDefault =
            client.storage().v1().storageClasses().list().getItems().stream()
                .filter(
                    c -> c.getMetadata().getAnnotations() != null
                        && "true".equals(c.getMetadata().getAnnotations().get(DEFAULT_CLASS)))
                .findFirst();
        return byDefault
            .map(c -> expansionOf(c, "the default StorageClass " + c.getMetadata().getName()))
            .orElse(new Expansion(false, "the claim names no StorageClass and there is no default"
                + " StorageClass"));
      }
      StorageClass sc = client.storage().v1().storageClasses().withName(storageClassName).get();
      return sc == null
          ? new Expansion(false, "StorageClass " + storageClassName + " does not exist")
          : expansionOf(sc, "StorageClass " + storageClassName);
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_FORBIDDEN) {
        return new Expansion(false, "the operator may not read StorageClasses (forbidden); grant"
            + " storageclasses get and list with a ClusterRole (the chart's cluster-scoped install"
            + " does)");
      }
      throw e;
    }
  }

  private static Expansion expansionOf(StorageClass sc, String what) {
    return Boolean.TRUE.equals(sc.getAllowVolumeExpansion())
        ? new Expansion(true, what + " allows volume expansion")
        : new Expansion(false, what + " does not allow volume expansion (allowVolumeExpansion is"
            + " not true)");
  }

  @Override
  public Optional<PersistentVolume> cachedVolume(String name) {
    return volumes.flatMap(v -> v.cached(name));
  }

  @Override
  public Optional<PersistentVolume> volume(String name) {
    Optional<PersistentVolume> cached = cachedVolume(name);
    if (cached.isPresent()) {
      return cached;
    }
    try {
      return Optional.ofNullable(client.persistentVolumes().withName(name).get());
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_FORBIDDEN) {
        if (PV_FORBIDDEN_LOGGED.compareAndSet(false, true)) {
          LOG.warn(
              "persistent volumes cannot be read (forbidden): spec.pvReclaimPolicy is not applied;"
                  + " grant persistentvolumes get and patch with a ClusterRole namespace={}",
              namespace);
        }
        return Optional.empty();
      }
      throw e;
    }
  }

  @Override
  public CheckedVolumes checkedVolumes() {
    return checked;
  }

  @Override
  public void setReclaimPolicy(String volume, String policy) {
    MergePatch.patch(client, PersistentVolume.class, null, volume,
        ApiObjects.toJson(Map.of("spec", Map.of("persistentVolumeReclaimPolicy", policy))));
  }

  @Override
  public VolumeWrite updateVolume(
      String volume, Map<String, String> labels, Map<String, String> annotations, String policy) {
    Map<String, Object> metadata = new java.util.LinkedHashMap<>();
    if (!labels.isEmpty()) {
      metadata.put("labels", labels);
    }
    if (!annotations.isEmpty()) {
      metadata.put("annotations", annotations);
    }
    Map<String, Object> patch = new java.util.LinkedHashMap<>();
    if (!metadata.isEmpty()) {
      patch.put("metadata", metadata);
    }
    if (policy != null) {
      patch.put("spec", Map.of("persistentVolumeReclaimPolicy", policy));
    }
    if (patch.isEmpty()) {
      return VolumeWrite.WRITTEN;
    }
    try {
      MergePatch.patch(client, PersistentVolume.class, null, volume, ApiObjects.toJson(patch));
      return VolumeWrite.WRITTEN;
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return VolumeWrite.MISSING;
      }
      if (e.getCode() == HttpURLConnection.HTTP_FORBIDDEN) {
        if (PV_FORBIDDEN_LOGGED.compareAndSet(false, true)) {
          LOG.warn(
              "persistent volumes cannot be patched (forbidden): spec.pvReclaimPolicy and the"
                  + " volume labels are not applied; grant persistentvolumes get and patch with a"
                  + " ClusterRole namespace={}",
              namespace);
        }
        return VolumeWrite.FORBIDDEN;
      }
      throw e;
    }
  }
}
