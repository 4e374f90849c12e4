package io.tidb.operator.controller.tidbcluster;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.controller.tidbcluster.pipeline.VolumeClaims;
import java.net.HttpURLConnection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@link VolumeClaims} of one namespace over the API server. */
final class KubeVolumeClaims implements VolumeClaims {

  private static final PatchContext MERGE = new PatchContext.Builder()
      .withPatchType(PatchType.JSON_MERGE)
      .build();

  private final KubernetesClient client;
  private final String namespace;

  KubeVolumeClaims(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  @Override
  public Optional<PersistentVolumeClaim> get(String name) {
    return Optional.ofNullable(
        client.persistentVolumeClaims().inNamespace(namespace).withName(name).get());
  }

  @Override
  public List<PersistentVolumeClaim> list(Map<String, String> labels) {
    return client.persistentVolumeClaims().inNamespace(namespace).withLabels(labels).list()
        .getItems().stream()
        .sorted(Comparator.comparing(p -> p.getMetadata().getName()))
        .toList();
  }

  @Override
  public void annotate(String name, String key, String value) {
    try {
      client
          .persistentVolumeClaims()
          .inNamespace(namespace)
          .withName(name)
          .patch(
              MERGE,
              ApiObjects.toJson(
                  Map.of("metadata", Map.of("annotations", Map.of(key, value)))));
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
        throw e;
      }
    }
  }

  @Override
  public void delete(String name, String uid) {
    Optional<PersistentVolumeClaim> current = get(name);
    if (current.isEmpty() || !uid.equals(current.get().getMetadata().getUid())) {
      return;
    }
    client.resource(current.get()).delete();
  }
}
