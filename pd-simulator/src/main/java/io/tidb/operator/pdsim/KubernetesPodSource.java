package io.tidb.operator.pdsim;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the simulated clusters in line with the TidbCluster pods of a Kubernetes cluster: an
 * informer on pods labelled {@code app.kubernetes.io/managed-by=tidb-operator} and {@code
 * app.kubernetes.io/component} in pd, tikv, tiflash, tidb, ticdc, tiproxy, pump; every change re-derives the state of
 * the pod's cluster ({@code app.kubernetes.io/instance}) from all of its pods. A second informer on
 * nodes (when the client may list them) makes the pods of a node whose {@code Ready} condition is
 * not {@code True} stop running, as PD loses the members and stores of a node that went down. A
 * third (when the TidbCluster CRD is installed) declares each TidbCluster with {@code
 * spec.cluster}, or with {@code spec.pdAddresses} naming another TidbCluster's PD here, {@link
 * SimulatedClusters#join joined} to that cluster's PD, as its pods join it.
 */
public final class KubernetesPodSource implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(KubernetesPodSource.class);

  private final SimulatedClusters clusters;
  private final SharedIndexInformer<Pod> informer;
  private volatile SharedIndexInformer<Node> nodes;
  private volatile SharedIndexInformer<GenericKubernetesResource> tidbClusters;

  private KubernetesPodSource(SimulatedClusters clusters, SharedIndexInformer<Pod> informer) {
    this.clusters = clusters;
    this.informer = informer;
  }

  /**
   * Starts watching and waits for the initial list.
   *
   * @param namespace the namespace to watch, or null for all namespaces
   */
  public static KubernetesPodSource start(
      KubernetesClient client, String namespace, SimulatedClusters clusters) {
    FilterWatchListDeletable<Pod, PodList, PodResource> pods =
        namespace == null ? client.pods().inAnyNamespace() : client.pods().inNamespace(namespace);
    SharedIndexInformer<Pod> informer = pods
        .withLabel(PodTopology.MANAGED_BY, PodTopology.OPERATOR)
        .withLabelIn(PodTopology.COMPONENT, PodTopology.COMPONENTS.toArray(String[]::new))
        .runnableInformer(0);
    KubernetesPodSource source = new KubernetesPodSource(clusters, informer);
    source.watchTidbClusters(client, namespace);
    informer.addEventHandler(source.handler());
    informer.run();
    source.watchNodes(client);
    LOG.info("pod source started namespace={}", namespace == null ? "<all>" : namespace);
    return source;
  }

  private ResourceEventHandler<Pod> handler() {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(Pod pod) {
        resync(pod);
      }

      @Override
      public void onUpdate(Pod oldPod, Pod newPod) {
        resync(newPod);
      }

      @Override
      public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
        resync(pod);
      }
    };
  }

  private void watchNodes(KubernetesClient client) {
    try {
      SharedIndexInformer<Node> informer = client.nodes().runnableInformer(0);
      informer.addEventHandler(new ResourceEventHandler<>() {
        @Override
        public void onAdd(Node node) {
          resyncAll();
        }

        @Override
        public void onUpdate(Node oldNode, Node newNode) {
          if (down(oldNode) != down(newNode)) {
            resyncAll();
          }
        }

        @Override
        public void onDelete(Node node, boolean deletedFinalStateUnknown) {
          resyncAll();
        }
      });
      informer.run();
      nodes = informer;
      resyncAll();
    } catch (KubernetesClientException e) {
      LOG.info("nodes cannot be watched; pods count as running whatever their node error=\"{}\"",
          e.getMessage());
    }
  }

  private void watchTidbClusters(KubernetesClient client, String namespace) {
    var resources = client.genericKubernetesResources("pingcap.com/v1alpha1", "TidbCluster");
    try {
      SharedIndexInformer<GenericKubernetesResource> informer =
          (namespace == null ? resources.inAnyNamespace() : resources.inNamespace(namespace))
              .runnableInformer(0);
      informer.addEventHandler(new ResourceEventHandler<>() {
        @Override
        public void onAdd(GenericKubernetesResource tc) {
          joinReferenced(tc);
        }

        @Override
        public void onUpdate(GenericKubernetesResource oldTc, GenericKubernetesResource newTc) {
          joinReferenced(newTc);
        }

        @Override
        public void onDelete(GenericKubernetesResource tc, boolean deletedFinalStateUnknown) {
          // A deleted cluster's pods go too; their PD membership follows the pods.
        }
      });
      informer.run();
      tidbClusters = informer;
    } catch (KubernetesClientException e) {
      LOG.info("TidbClusters cannot be watched; heterogeneous clusters join only when declared "
          + "error=\"{}\"", e.getMessage());
    }
  }

  /**
   * The PD cluster a TidbCluster's pods join: the one of {@code spec.cluster} ({@code name}, {@code
   * namespace} defaulting to its own), or empty when it references none.
   */
  static java.util.Optional<ClusterKey> referencedPd(GenericKubernetesResource tc) {
    Object spec = tc.getAdditionalProperties().get("spec");
    if (!(spec instanceof Map<?, ?> specMap)) {
      return java.util.Optional.empty();
    }
    if (specMap.get("cluster") instanceof Map<?, ?> ref && ref.get("name") instanceof String name
        && !name.isBlank()) {
      String namespace = ref.get("namespace") instanceof String ns && !ns.isBlank()
          ? ns : tc.getMetadata().getNamespace();
      return java.util.Optional.of(new ClusterKey(namespace, name));
    }
    if (specMap.get("pdAddresses") instanceof List<?> addresses && !addresses.isEmpty()
        && addresses.get(0) instanceof String address) {
      return pdOfAddress(address, tc.getMetadata().getNamespace());
    }
    return java.util.Optional.empty();
  }

  /**
   * The TidbCluster whose PD a {@code spec.pdAddresses} entry names, when it is one of this
   * Kubernetes cluster's PD Services or pods: {@code <tc>-pd[.<ns>...]}, {@code
   * <tc>-pd-peer[.<ns>...]} or {@code <tc>-pd-<n>.<tc>-pd-peer[.<ns>...]}, with or without a scheme
   * and port; the namespace defaults to {@code namespace}.
   */
  static java.util.Optional<ClusterKey> pdOfAddress(String address, String namespace) {
    String hostPort = address.replaceFirst("^[a-z]+://", "");
    String[] labels = hostPort.replaceFirst("[:/].*$", "").split("\\.");
    java.util.regex.Matcher service =
        java.util.regex.Pattern.compile("^([a-z0-9-]+?)-pd(?:-peer)?$").matcher(labels[0]);
    java.util.regex.Matcher pod =
        java.util.regex.Pattern.compile("^([a-z0-9-]+?)-pd-\\d+$").matcher(labels[0]);
    if (service.matches()) {
      return java.util.Optional.of(new ClusterKey(
          labels.length > 1 ? labels[1] : namespace, service.group(1)));
    }
    if (pod.matches()) {
      return java.util.Optional.of(new ClusterKey(
          labels.length > 2 ? labels[2] : namespace, pod.group(1)));
    }
    return java.util.Optional.empty();
  }

  private void joinReferenced(GenericKubernetesResource tc) {
    ClusterKey key = new ClusterKey(tc.getMetadata().getNamespace(), tc.getMetadata().getName());
    referencedPd(tc).filter(ref -> !ref.equals(clusters.pdOwnerOf(key))).ifPresent(ref -> {
      clusters.join(key, ref);
      LOG.info("heterogeneous cluster joins the referenced PD cluster={} pdCluster={}", key, ref);
      resync(key);
    });
  }

  /** A node whose Ready condition is known and not True. */
  static boolean down(Node node) {
    return node != null && node.getStatus() != null && node.getStatus().getConditions() != null
        && node.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && !"True".equals(c.getStatus()));
  }

  private boolean nodeDown(String name) {
    SharedIndexInformer<Node> watched = nodes;
    return watched != null && down(watched.getStore().getByKey(name));
  }

  private void resyncAll() {
    informer.getStore().list().stream()
        .map(PodTopology::clusterOf)
        .flatMap(java.util.Optional::stream)
        .distinct()
        .forEach(this::resync);
  }

  private void resync(Pod changed) {
    PodTopology.clusterOf(changed).ifPresent(this::resync);
  }

  /**
   * Syncs the PD cluster {@code key}'s pods join ({@link SimulatedClusters#pdOwnerOf}) with the
   * pods of every cluster in it.
   */
  private void resync(ClusterKey key) {
    ClusterKey owner = clusters.pdOwnerOf(key);
    Map<ClusterKey, List<Pod>> byCluster = new TreeMap<>();
    byCluster.put(owner, new ArrayList<>());
    byCluster.put(key, new ArrayList<>());
    for (Pod p : informer.getStore().list()) {
      PodTopology.clusterOf(p).filter(k -> clusters.pdOwnerOf(k).equals(owner))
          .ifPresent(k -> byCluster.computeIfAbsent(k, x -> new ArrayList<>()).add(p));
    }
    Map<ClusterKey, ClusterPods> pods = new TreeMap<>();
    byCluster.forEach((k, list) -> pods.put(k, PodTopology.clusterPods(list, this::nodeDown)));
    clusters.syncPods(owner, pods);
    pods.forEach((k, clusterPods) -> LOG.debug(
        "cluster synced from pods cluster={} pdCluster={} pd={} tikv={} tiflash={} tidb={}", k,
        owner, clusterPods.pd().size(), clusterPods.tikv().size(), clusterPods.tiflash().size(),
        clusterPods.tidb().size()));
  }

  @Override
  public void close() {
    if (tidbClusters != null) {
      tidbClusters.close();
    }
    if (nodes != null) {
      nodes.close();
    }
    informer.close();
  }
}
