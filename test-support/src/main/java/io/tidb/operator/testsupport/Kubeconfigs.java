package io.tidb.operator.testsupport;

import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** Kubeconfig files for the processes under test. */
public final class Kubeconfigs {

  private Kubeconfigs() {
  }

  /** Writes a kubeconfig (YAML text) to a private temporary file. */
  public static Path write(String prefix, String yaml) {
    try {
      Path file = Files.createTempFile(prefix, ".kubeconfig",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.writeString(file, yaml);
      file.toFile().deleteOnExit();
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write a kubeconfig", e);
    }
  }

  /**
   * A kubeconfig that acts as the ServiceAccount {@code namespace/name} (a bound token valid for
   * two hours), so a process runs with exactly the permissions the chart grants that account.
   */
  public static Path forServiceAccount(KubernetesClient admin, String adminKubeconfigYaml, String namespace, String name) {
    String token = serviceAccountToken(admin, namespace, name);
    Config cluster = Config.fromKubeconfig(adminKubeconfigYaml);
    String yaml = """
        apiVersion: v1
        kind: Config
        clusters:
        - name: local
          cluster:
            server: %s
            certificate-authority-data: %s
        users:
        - name: %s
          user:
            token: %s
        contexts:
        - name: %s
          context:
            cluster: local
            user: %s
            namespace: %s
        current-context: %s
        """.formatted(cluster.getMasterUrl(), cluster.getCaCertData(), name, token,
        name, name, namespace, name);
    return write(name + "-", yaml);
  }

  /** A bound token for the ServiceAccount {@code namespace/name}, valid for two hours. */
  public static String serviceAccountToken(KubernetesClient admin, String namespace, String name) {
    TokenRequest request = admin.serviceAccounts().inNamespace(namespace).withName(name)
        .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(7200L).endSpec().build());
    return request.getStatus().getToken();
  }
}
