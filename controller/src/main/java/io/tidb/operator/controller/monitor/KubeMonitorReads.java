package io.tidb.operator.controller.monitor;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.tidb.operator.api.UnreadableResources;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@link MonitorReads} over the API server: TidbClusters from the controller's informer cache,
 * DMClusters (no model in this operator yet), Secrets and ConfigMaps by GET. A DMCluster whose CRD
 * is not installed does not exist.
 */
public final class KubeMonitorReads implements MonitorReads {

  private final KubernetesClient client;
  private final Function<ResourceID, Optional<TidbCluster>> tidbClusters;

  public KubeMonitorReads(
      KubernetesClient client, Function<ResourceID, Optional<TidbCluster>> tidbClusters) {
    this.client = client;
    this.tidbClusters = tidbClusters;
  }

  @Override
  public Optional<TidbCluster> tidbCluster(String namespace, String name) {
    return tidbClusters.apply(new ResourceID(name, namespace)).map(UnreadableResources::requireReadable);
  }

  @Override
  public Optional<Boolean> dmClusterTls(String namespace, String name) {
    GenericKubernetesResource dc;
    try {
      dc = client.genericKubernetesResources("pingcap.com/v1alpha1", "DMCluster")
          .inNamespace(namespace).withName(name).get();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return Optional.empty();
      }
      throw e;
    }
    if (dc == null) {
      return Optional.empty();
    }
    Object spec = dc.getAdditionalProperties().get("spec");
    Object tls = spec instanceof Map<?, ?> m ? m.get("tlsCluster") : null;
    Object enabled = tls instanceof Map<?, ?> t ? t.get("enabled") : null;
    return Optional.of(Boolean.TRUE.equals(enabled));
  }

  @Override
  public Optional<Secret> secret(String namespace, String name) {
    return Optional.ofNullable(client.secrets().inNamespace(namespace).withName(name).get());
  }

  @Override
  public Optional<ConfigMap> configMap(String namespace, String name) {
    return Optional.ofNullable(client.configMaps().inNamespace(namespace).withName(name).get());
  }
}
