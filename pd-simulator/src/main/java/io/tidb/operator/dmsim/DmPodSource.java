package io.tidb.operator.dmsim;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.PodInstance;
import io.tidb.operator.pdsim.PodTopology;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the simulated DM clusters in line with the DMCluster pods of one namespace: an informer on
 * pods labelled {@code app.kubernetes.io/managed-by=tidb-operator} and {@code
 * app.kubernetes.io/component} dm-master or dm-worker; every change re-derives the state of the
 * pod's cluster ({@code app.kubernetes.io/instance}) from all of its pods.
 */
public final class DmPodSource implements AutoCloseable {

  public static final String MASTER = "dm-master";
  public static final String WORKER = "dm-worker";

  private static final Logger LOG = LoggerFactory.getLogger(DmPodSource.class);

  private final SimulatedDmClusters clusters;
  private final SharedIndexInformer<Pod> informer;

  private DmPodSource(SimulatedDmClusters clusters, SharedIndexInformer<Pod> informer) {
    this.clusters = clusters;
    this.informer = informer;
  }

  /** Starts watching {@code namespace} and waits for the initial list. */
  public static DmPodSource start(KubernetesClient client, String namespace, SimulatedDmClusters clusters) {
    SharedIndexInformer<Pod> informer = client.pods().inNamespace(namespace)
        .withLabel(PodTopology.MANAGED_BY, PodTopology.OPERATOR)
        .withLabelIn(PodTopology.COMPONENT, MASTER, WORKER)
        .runnableInformer(0);
    DmPodSource source = new DmPodSource(clusters, informer);
    informer.addEventHandler(new ResourceEventHandler<>() {
      @Override
      public void onAdd(Pod pod) {
        source.resync(pod);
      }

      @Override
      public void onUpdate(Pod oldPod, Pod newPod) {
        source.resync(newPod);
      }

      @Override
      public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
        source.resync(pod);
      }
    });
    informer.run();
    LOG.info("dm pod source started namespace={}", namespace);
    return source;
  }

  private void resync(Pod changed) {
    PodTopology.clusterOf(changed).ifPresent(this::resync);
  }

  private synchronized void resync(ClusterKey key) {
    List<Pod> pods = informer.getStore().list().stream()
        .filter(p -> PodTopology.clusterOf(p).filter(key::equals).isPresent())
        .toList();
    clusters.syncPods(key, instances(pods, MASTER), instances(pods, WORKER));
  }

  private static List<PodInstance> instances(List<Pod> pods, String component) {
    return pods.stream()
        .filter(p -> component.equals(p.getMetadata().getLabels().get(PodTopology.COMPONENT)))
        .map(p -> PodTopology.instance(p, node -> false))
        .sorted(Comparator.comparing(PodInstance::name))
        .toList();
  }

  @Override
  public void close() {
    informer.close();
  }
}
