package io.tidb.operator.controller.tidbcluster.member;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatus;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A component's StatefulSet and pods as the scale and upgrade rules see them: replicas,
 * RollingUpdate partition, revisions and each pod by ordinal.
 *
 * @param name the StatefulSet's name; its pods are {@code <name>-<ordinal>}
 * @param observed the StatefulSet controller has seen the latest spec (its revisions are current)
 * @param onDelete the StatefulSet uses the {@code OnDelete} update strategy (the partition does
 *     nothing)
 */
public record Rollout(
    String name,
    int replicas,
    int partition,
    boolean observed,
    boolean onDelete,
    String currentRevision,
    String updateRevision,
    Map<Integer, ObservedPod> pods) {

  public Rollout {
    pods = Collections.unmodifiableMap(new TreeMap<>(pods));
  }

  public static Rollout of(StatefulSet sts, List<Pod> pods) {
    Map<Integer, ObservedPod> byOrdinal = new TreeMap<>();
    for (Pod pod : pods) {
      ObservedPod.of(pod).ifPresent(p -> byOrdinal.put(p.ordinal(), p));
    }
    int replicas = ComponentPhase.replicasOf(sts);
    var strategy = sts.getSpec().getUpdateStrategy();
    boolean onDelete = strategy != null && "OnDelete".equals(strategy.getType());
    Integer partition =
        strategy == null || strategy.getRollingUpdate() == null
            ? null
            : strategy.getRollingUpdate().getPartition();
    StatefulSetStatus st = sts.getStatus();
    Long generation = sts.getMetadata().getGeneration();
    boolean observed =
        st != null
            && st.getObservedGeneration() != null
            && (generation == null || st.getObservedGeneration() >= generation);
    return new Rollout(
        sts.getMetadata().getName(),
        replicas,
        partition == null ? 0 : partition,
        observed,
        onDelete,
        st == null ? null : st.getCurrentRevision(),
        st == null ? null : st.getUpdateRevision(),
        byOrdinal);
  }

  public String podName(int ordinal) {
    return name + "-" + ordinal;
  }

  public Optional<ObservedPod> pod(int ordinal) {
    return Optional.ofNullable(pods.get(ordinal));
  }

  /** The pod runs the StatefulSet's update revision. */
  public boolean isUpdated(ObservedPod pod) {
    return updateRevision != null && updateRevision.equals(pod.revision());
  }

  /**
   * Some pod below {@code replicas} does not run the update revision yet (or the StatefulSet says
   * its current revision is not the update revision). Only meaningful when {@link #observed}.
   */
  public boolean needsRoll() {
    if (updateRevision == null) {
      return false;
    }
    if (!Objects.equals(currentRevision, updateRevision)) {
      return true;
    }
    for (int i = 0; i < replicas; i++) {
      ObservedPod p = pods.get(i);
      if (p == null || !isUpdated(p)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the component's {@code Upgrade} condition shows an upgrade (and its end an {@code
   * Upgraded} Event), while the operation is an upgrade: the pod template is not applied yet, the
   * StatefulSet's current and update revisions differ, or an existing pod below {@code replicas}
   * runs another revision; once shown, also until every pod is back and the StatefulSet
   * controller has seen the latest spec. Pods not created yet are no upgrade on their own: a new
   * StatefulSet or a scale-out creates them at the update revision, and a bring-up is not
   * reported as an upgrade.
   */
  public boolean upgradeShown(boolean templateApplied, boolean shownBefore) {
    if (!templateApplied) {
      return true;
    }
    if (updateRevision != null) {
      if (currentRevision != null && !currentRevision.equals(updateRevision)) {
        return true;
      }
      for (int i = 0; i < replicas; i++) {
        ObservedPod p = pods.get(i);
        if (p != null && !isUpdated(p)) {
          return true;
        }
      }
    }
    if (!shownBefore) {
      return false;
    }
    if (!observed) {
      return true;
    }
    for (int i = 0; i < replicas; i++) {
      if (pods.get(i) == null) {
        return true;
      }
    }
    return false;
  }

  /** An upgrade has released some pods: the partition is below the replica count. */
  public boolean rolling() {
    return partition < replicas;
  }

  /** Pods below {@code replicas} that run the update revision. */
  public int updatedCount() {
    int n = 0;
    for (int i = 0; i < replicas; i++) {
      ObservedPod p = pods.get(i);
      if (p != null && isUpdated(p)) {
        n++;
      }
    }
    return n;
  }
}
