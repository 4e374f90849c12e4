package io.tidb.operator.pdsim;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Reads TidbCluster pods: which cluster and component a pod belongs to, and whether it runs. */
final class PodTopology {

  static final String COMPONENT = "app.kubernetes.io/component";
  static final String INSTANCE = "app.kubernetes.io/instance";
  static final String MANAGED_BY = "app.kubernetes.io/managed-by";
  static final String OPERATOR = "tidb-operator";
  static final List<String> COMPONENTS = List.of("pd", "tikv", "tiflash", "tidb");

  private PodTopology() {}

  /** The cluster of a pod managed by tidb-operator, if it carries the instance label. */
  static Optional<ClusterKey> clusterOf(Pod pod) {
    Map<String, String> labels = pod.getMetadata().getLabels();
    if (labels == null || !OPERATOR.equals(labels.get(MANAGED_BY))
        || labels.get(INSTANCE) == null || labels.get(INSTANCE).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new ClusterKey(pod.getMetadata().getNamespace(), labels.get(INSTANCE)));
  }

  /** Groups the pods of one cluster by component; pods of other components are ignored. */
  static ClusterPods clusterPods(List<Pod> pods) {
    Map<String, List<PodInstance>> byComponent = new TreeMap<>();
    COMPONENTS.forEach(c -> byComponent.put(c, new ArrayList<>()));
    for (Pod pod : pods) {
      String component = pod.getMetadata().getLabels().get(COMPONENT);
      List<PodInstance> list = byComponent.get(component);
      if (list != null) {
        list.add(instance(pod));
      }
    }
    byComponent.values().forEach(list -> list.sort((a, b) -> a.name().compareTo(b.name())));
    return new ClusterPods(byComponent.get("pd"), byComponent.get("tikv"),
        byComponent.get("tiflash"), byComponent.get("tidb"));
  }

  /**
   * A pod runs (its member answers, its store heartbeats) when its phase is Running and its Ready
   * condition is not False: a Running pod that is not Ready is one whose node went NotReady (the
   * node lifecycle controller marks its pods so) or whose readiness probe fails, and PD cannot
   * reach it either.
   */
  static PodInstance instance(Pod pod) {
    boolean running = pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase())
        && (pod.getStatus().getConditions() == null
            || pod.getStatus().getConditions().stream()
                .noneMatch(c -> "Ready".equals(c.getType()) && "False".equals(c.getStatus())));
    return new PodInstance(pod.getMetadata().getName(), pod.getMetadata().getUid(), running,
        pod.getMetadata().getDeletionTimestamp() != null);
  }
}
