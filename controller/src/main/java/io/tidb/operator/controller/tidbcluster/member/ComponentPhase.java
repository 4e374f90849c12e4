package io.tidb.operator.controller.tidbcluster.member;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatus;
import java.util.Objects;
import java.util.Optional;

/** A component's phase as upstream reports it in {@code status.<component>.phase}. */
public enum ComponentPhase {
  NORMAL("Normal"),
  SCALE("Scale"),
  UPGRADE("Upgrade");

  private final String value;

  ComponentPhase(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }

  /**
   * The phase of a component whose StatefulSet should have {@code desiredReplicas}: Upgrade while
   * the StatefulSet's pods are not all at its update revision, else Scale while the replica count
   * is not where it should be, else Normal. A missing StatefulSet is Normal (nothing to report).
   */
  public static ComponentPhase of(int desiredReplicas, Optional<StatefulSet> statefulSet) {
    if (statefulSet.isEmpty()) {
      return NORMAL;
    }
    StatefulSet sts = statefulSet.get();
    if (isUpgrading(sts)) {
      return UPGRADE;
    }
    int specReplicas = replicasOf(sts);
    StatefulSetStatus st = sts.getStatus();
    int observedReplicas = st == null || st.getReplicas() == null ? 0 : st.getReplicas();
    if (desiredReplicas != specReplicas || observedReplicas != specReplicas) {
      return SCALE;
    }
    return NORMAL;
  }

  /** The StatefulSet's pods are not all at its update revision. */
  public static boolean isUpgrading(StatefulSet sts) {
    StatefulSetStatus st = sts.getStatus();
    if (st == null) {
      return false;
    }
    if (st.getCurrentRevision() != null
        && st.getUpdateRevision() != null
        && !Objects.equals(st.getCurrentRevision(), st.getUpdateRevision())) {
      return true;
    }
    Long generation = sts.getMetadata().getGeneration();
    Long observed = st.getObservedGeneration();
    return generation != null
        && observed != null
        && generation > observed
        && st.getReplicas() != null
        && st.getReplicas() == replicasOf(sts);
  }

  /**
   * The StatefulSet controller has seen the latest spec and every pod runs the update revision.
   */
  public static boolean isUpToDate(StatefulSet sts) {
    StatefulSetStatus st = sts.getStatus();
    if (st == null || st.getObservedGeneration() == null) {
      return false;
    }
    Long generation = sts.getMetadata().getGeneration();
    return (generation == null || st.getObservedGeneration() >= generation)
        && Objects.equals(st.getCurrentRevision(), st.getUpdateRevision());
  }

  static int replicasOf(StatefulSet sts) {
    return sts.getSpec() == null || sts.getSpec().getReplicas() == null
        ? 1
        : sts.getSpec().getReplicas();
  }
}
