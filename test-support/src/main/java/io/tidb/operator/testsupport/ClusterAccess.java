package io.tidb.operator.testsupport;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * How tests reach a running API server: its kubeconfig. Each {@link #newClient()} is a fresh client
 * the caller closes (JOSDK's test extensions close the client they are given).
 *
 * @param kubeConfigYaml a kubeconfig whose current context is the API server, as YAML
 */
public record ClusterAccess(String kubeConfigYaml) {

  public KubernetesClient newClient() {
    return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeConfigYaml)).build();
  }
}
