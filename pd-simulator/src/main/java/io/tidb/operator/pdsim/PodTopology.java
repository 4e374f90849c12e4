package io.tidb.operator.pdsim;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;

/** Reads TidbCluster pods: which cluster and component a pod belongs to, and whether it runs. */
public final class PodTopology {

  public static final String COMPONENT = "app.kubernetes.io/component";
  public static final String INSTANCE = "app.kubernetes.io/instance";
  public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
  public static final String OPERATOR = "tidb-operator";
  static final List<String> COMPONENTS = List.of("pd", "tikv", "tiflash", "tidb", "ticdc", "tiproxy", "pump");

  private PodTopology() {}

  /** The cluster of a pod managed by tidb-operator, if it carries the instance label. */
  public static Optional<ClusterKey> clusterOf(Pod pod) {
    Map<String, String> labels = pod.getMetadata().getLabels();
    if (labels == null || !OPERATOR.equals(labels.get(MANAGED_BY))
        || labels.get(INSTANCE) == null || labels.get(INSTANCE).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new ClusterKey(pod.getMetadata().getNamespace(), labels.get(INSTANCE)));
  }

  /**
   * Groups the pods of one cluster by component; pods of other components are ignored.
   *
   * @param nodeDown whether a node (by name) is down: its pods do not run
   */
  static ClusterPods clusterPods(List<Pod> pods, Predicate<String> nodeDown) {
    Map<String, List<PodInstance>> byComponent = new TreeMap<>();
    COMPONENTS.forEach(c -> byComponent.put(c, new ArrayList<>()));
    for (Pod pod : pods) {
      String component = pod.getMetadata().getLabels().get(COMPONENT);
      List<PodInstance> list = byComponent.get(component);
      if (list != null) {
        list.add(instance(pod, nodeDown));
      }
    }
    byComponent.values().forEach(list -> list.sort((a, b) -> a.name().compareTo(b.name())));
    return new ClusterPods(byComponent.get("pd"), byComponent.get("tikv"),
        byComponent.get("tiflash"), byComponent.get("tidb"), byComponent.get("ticdc"),
        byComponent.get("tiproxy"), byComponent.get("pump"));
  }

  /**
   * A pod runs (its member answers, its store heartbeats) when its phase is Running, its Ready
   * condition is not False and its node is not down: a Running pod that is not Ready is one whose
   * readiness probe fails or whose node stopped reporting (the node lifecycle controller marks its
   * pods so), and a pod on a NotReady node cannot be reached either.
   */
  public static PodInstance instance(Pod pod, Predicate<String> nodeDown) {
    String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    boolean running = pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase())
        && (node == null || node.isEmpty() || !nodeDown.test(node))
        && (pod.getStatus().getConditions() == null
            || pod.getStatus().getConditions().stream()
                .noneMatch(c -> "Ready".equals(c.getType()) && "False".equals(c.getStatus())));
    return new PodInstance(pod.getMetadata().getName(), pod.getMetadata().getUid(), running,
        pod.getMetadata().getDeletionTimestamp() != null, version(pod));
  }

  /**
   * The image tag of the pod's main container (named after its component, else the first one);
   * null without a tag.
   */
  static String version(Pod pod) {
    if (pod.getSpec() == null || pod.getSpec().getContainers() == null
        || pod.getSpec().getContainers().isEmpty()) {
      return null;
    }
    Map<String, String> labels = pod.getMetadata().getLabels();
    String component = labels == null ? null : labels.get(COMPONENT);
    String image = pod.getSpec().getContainers().stream()
        .filter(c -> c.getName() != null && c.getName().equals(component))
        .findFirst().orElse(pod.getSpec().getContainers().get(0)).getImage();
    if (image == null) {
      return null;
    }
    int colon = image.lastIndexOf(':');
    return colon < 0 || image.indexOf('/', colon) >= 0 ? null : image.substring(colon + 1);
  }
}
