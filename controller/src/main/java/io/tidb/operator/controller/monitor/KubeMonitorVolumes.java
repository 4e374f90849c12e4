package io.tidb.operator.controller.monitor;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.controller.runtime.MergePatch;
import java.net.HttpURLConnection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link MonitorVolumes} over the API server, by GET and merge patch. */
public final class KubeMonitorVolumes implements MonitorVolumes {

  private static final Logger LOG = LoggerFactory.getLogger(KubeMonitorVolumes.class);

  private final KubernetesClient client;
  private final AtomicBoolean forbiddenLogged = new AtomicBoolean();

  public KubeMonitorVolumes(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public Optional<PersistentVolumeClaim> claim(String namespace, String name) {
    return Optional.ofNullable(client.persistentVolumeClaims().inNamespace(namespace).withName(name).get());
  }

  @Override
  public Optional<PersistentVolume> volume(String name) {
    try {
      return Optional.ofNullable(client.persistentVolumes().withName(name).get());
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_FORBIDDEN) {
        throw e;
      }
      if (forbiddenLogged.compareAndSet(false, true)) {
        LOG.warn("persistent volumes cannot be read (forbidden): the TidbMonitor spec.pvReclaimPolicy"
            + " is not applied; grant persistentvolumes get and patch with a ClusterRole");
      }
      return Optional.empty();
    }
  }

  @Override
  public void setReclaimPolicy(String volume, String policy) {
    MergePatch.patch(client, PersistentVolume.class, null, volume,
        ApiObjects.toJson(Map.of("spec", Map.of("persistentVolumeReclaimPolicy", policy))));
  }
}
