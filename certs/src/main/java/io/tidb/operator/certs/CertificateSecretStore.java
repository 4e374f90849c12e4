package io.tidb.operator.certs;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.util.Map;
import java.util.Optional;

/**
 * Reads and writes the certificate Secret. Writes are optimistic: {@link #create} fails with 409
 * when the Secret already exists and {@link #replace} fails with 409 when it changed since it was
 * read; the caller decides what to do.
 */
public class CertificateSecretStore {

  static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";
  static final String MANAGED_BY = "tidb-operator-webhook";

  private final KubernetesClient client;
  private final String namespace;
  private final String name;

  public CertificateSecretStore(KubernetesClient client, String namespace, String name) {
    this.client = client;
    this.namespace = namespace;
    this.name = name;
  }

  public Optional<Secret> read() {
    return Optional.ofNullable(resource().get());
  }

  /** Creates the Secret with {@code data}; 409 if someone else created it first. */
  public Secret create(Map<String, String> data) {
    Secret secret =
        new SecretBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(namespace)
            .addToLabels(MANAGED_BY_LABEL, MANAGED_BY)
            .endMetadata()
            .withType(CertificateSecretData.SECRET_TYPE)
            .withData(data)
            .build();
    return client.secrets().inNamespace(namespace).resource(secret).create();
  }

  /** Replaces the data of {@code existing}; 409 if it changed since it was read. */
  public Secret replace(Secret existing, Map<String, String> data) {
    Secret updated = new SecretBuilder(existing).withData(data).build();
    return client.secrets().inNamespace(namespace).resource(updated).update();
  }

  /** {@code namespace/name}, for logs. */
  public String describe() {
    return namespace + "/" + name;
  }

  private Resource<Secret> resource() {
    return client.secrets().inNamespace(namespace).withName(name);
  }
}
