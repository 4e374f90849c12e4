package io.tidb.operator.controller.tidbcluster.password;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.Optional;

/** {@link PasswordSecrets} over the API server: GET by name and POST (no list, watch or update). */
public final class KubePasswordSecrets implements PasswordSecrets {

  private final KubernetesClient client;

  public KubePasswordSecrets(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public Optional<Secret> get(String namespace, String name) {
    return Optional.ofNullable(client.secrets().inNamespace(namespace).withName(name).get());
  }

  @Override
  public Secret createIfAbsent(Secret secret) {
    String ns = secret.getMetadata().getNamespace();
    try {
      return client.secrets().inNamespace(ns).resource(secret).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
        Optional<Secret> existing = get(ns, secret.getMetadata().getName());
        if (existing.isPresent()) {
          return existing.get();
        }
      }
      throw e;
    }
  }
}
