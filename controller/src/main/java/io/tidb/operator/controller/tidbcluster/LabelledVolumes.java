package io.tidb.operator.controller.tidbcluster;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.tidb.operator.controller.tidbcluster.member.PvLabels;
import java.net.HttpURLConnection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PersistentVolumes the operator has labelled for the claims of the namespaces it watches,
 * kept by a label-selected informer ({@value PvLabels#NAMESPACE} set to one of those namespaces),
 * so that checking a volume it patched earlier reads the cache instead of the API server.
 *
 * <p>A volume not labelled yet (just provisioned) is not in the cache: the caller reads it from
 * the API server as before. Without {@code list} and {@code watch} on persistentvolumes (a
 * namespace-scoped install without the chart's volume ClusterRole, or an older one) the informer
 * does not start and every read goes to the API server; that is said once in the log.
 */
public final class LabelledVolumes implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LabelledVolumes.class);

  private final SharedIndexInformer<PersistentVolume> informer;
  private final AtomicBoolean failed = new AtomicBoolean();

  private LabelledVolumes(SharedIndexInformer<PersistentVolume> informer) {
    this.informer = informer;
  }

  /**
   * Starts watching, without waiting for the first list.
   *
   * @param namespaces the namespaces watched; empty for all
   */
  public static LabelledVolumes start(KubernetesClient client, List<String> namespaces) {
    var volumes = namespaces.isEmpty()
        ? client.persistentVolumes().withLabel(PvLabels.NAMESPACE)
        : client.persistentVolumes().withLabelIn(PvLabels.NAMESPACE, namespaces.toArray(String[]::new));
    LabelledVolumes cache = new LabelledVolumes(volumes.runnableInformer(0));
    cache.informer.exceptionHandler((isStarted, t) -> {
      if (!forbidden(t)) {
        return true; // the API server is away: listed again when it is back, as every informer
      }
      if (cache.failed.compareAndSet(false, true)) {
        LOG.info("persistent volumes are read from the API server one at a time: the operator"
            + " may not list and watch them; grant persistentvolumes list and watch with a"
            + " ClusterRole (the chart's volume rules do)");
      }
      return false;
    });
    cache.informer.start().whenComplete((ignored, error) -> {
      if (error != null && cache.failed.compareAndSet(false, true)) {
        LOG.info("persistent volumes are read from the API server one at a time: the volume"
            + " cache did not start ({})", error.toString());
      }
    });
    return cache;
  }

  private static boolean forbidden(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof KubernetesClientException k
          && k.getCode() == HttpURLConnection.HTTP_FORBIDDEN) {
        return true;
      }
    }
    return false;
  }

  /**
   * The volume as last seen, when the cache is up and holds it; empty means "read it from the API
   * server" (not that it does not exist). The object is the cache's own: never change it.
   */
  public Optional<PersistentVolume> cached(String name) {
    if (failed.get() || !informer.hasSynced() || !informer.isRunning()) {
      return Optional.empty();
    }
    return Optional.ofNullable(informer.getStore().getByKey(name));
  }

  @Override
  public void close() {
    informer.close();
  }
}
