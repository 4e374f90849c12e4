package io.tidb.operator.controller.tidbcluster;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.tidb.operator.controller.runtime.PrunedItemStore;
import io.tidb.operator.controller.tidbcluster.member.PvLabels;
import java.net.HttpURLConnection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
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

  private final AtomicReference<SharedIndexInformer<PersistentVolume>> informer =
      new AtomicReference<>();
  private final AtomicBoolean refused = new AtomicBoolean();
  private volatile boolean closed;

  private LabelledVolumes() {}

  /**
   * Starts the cache in the background: first asks the API server whether the operator may list
   * and watch persistentvolumes (two SelfSubjectAccessReviews; without that permission the
   * informer is not started, so the client logs no failed list), then starts the informer.
   *
   * @param namespaces the namespaces watched; empty for all
   */
  public static LabelledVolumes start(KubernetesClient client, List<String> namespaces) {
    LabelledVolumes cache = new LabelledVolumes();
    CompletableFuture.runAsync(() -> cache.begin(client, namespaces));
    return cache;
  }

  private void begin(KubernetesClient client, List<String> namespaces) {
    try {
      if (!mayListAndWatch(client)) {
        refuse("the operator may not list and watch them; grant persistentvolumes list and watch"
            + " with a ClusterRole (the chart's volume rules do)");
        return;
      }
      var volumes = namespaces.isEmpty()
          ? client.persistentVolumes().withLabel(PvLabels.NAMESPACE)
          : client.persistentVolumes()
              .withLabelIn(PvLabels.NAMESPACE, namespaces.toArray(String[]::new));
      // The cache keeps no managedFields: nothing here applies volumes (PrunedItemStore).
      SharedIndexInformer<PersistentVolume> started =
          volumes.runnableInformer(0).itemStore(new PrunedItemStore<>());
      started.exceptionHandler((isStarted, t) -> {
        if (!forbidden(t)) {
          return true; // the API server is away: listed again when it is back, as every informer
        }
        refuse("the API server refused the cache its list or watch (" + t + ")");
        return false;
      });
      synchronized (this) {
        if (closed) {
          return;
        }
        informer.set(started);
      }
      started.start().whenComplete((ignored, error) -> {
        if (error != null) {
          refuse("the volume cache did not start (" + error + ")");
        }
      });
    } catch (RuntimeException e) {
      refuse("the volume cache did not start (" + e + ")");
    }
  }

  private static boolean mayListAndWatch(KubernetesClient client) {
    for (String verb : List.of("list", "watch")) {
      SelfSubjectAccessReview review = new SelfSubjectAccessReviewBuilder()
          .withNewSpec().withNewResourceAttributes()
              .withGroup("").withResource("persistentvolumes").withVerb(verb)
          .endResourceAttributes().endSpec()
          .build();
      SelfSubjectAccessReview answer =
          client.authorization().v1().selfSubjectAccessReview().create(review);
      if (answer.getStatus() == null || !Boolean.TRUE.equals(answer.getStatus().getAllowed())) {
        return false;
      }
    }
    return true;
  }

  private void refuse(String why) {
    if (refused.compareAndSet(false, true)) {
      LOG.info("persistent volumes are read from the API server one at a time: {}", why);
    }
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
    SharedIndexInformer<PersistentVolume> running = informer.get();
    if (refused.get() || running == null || !running.hasSynced() || !running.isRunning()) {
      return Optional.empty();
    }
    return Optional.ofNullable(running.getStore().getByKey(name));
  }

  /**
   * Whether the operator may not list and watch persistentvolumes, or the cache did not start:
   * then {@link #cached} answers nothing and every read goes to the API server.
   */
  public boolean forbidden() {
    return refused.get();
  }

  @Override
  public void close() {
    SharedIndexInformer<PersistentVolume> running;
    synchronized (this) {
      closed = true;
      running = informer.get();
    }
    if (running != null) {
      running.close();
    }
  }
}
