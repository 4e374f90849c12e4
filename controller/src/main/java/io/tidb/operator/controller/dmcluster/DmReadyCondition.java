package io.tidb.operator.controller.dmcluster;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.dm.MasterMember;
import io.tidb.operator.api.v1alpha1.dm.WorkerMember;
import io.tidb.operator.controller.tidbcluster.member.ComponentPhase;
import java.util.Map;
import java.util.Optional;

/**
 * The DMCluster's {@code Ready} condition, upstream's definition: every StatefulSet is up to date
 * with all pods Ready, every dm-master member is healthy and there is a leader, and every desired
 * dm-worker is registered and not offline. The first unmet item is the reason. Pure.
 */
public final class DmReadyCondition {

  public static final String TYPE = "Ready";

  /** The condition's status, reason and message. */
  public record Verdict(String status, String reason, String message) {}

  private DmReadyCondition() {}

  /**
   * @param masterWanted spec.master.replicas
   * @param workerWanted spec.worker.replicas, empty without workers
   * @param synced the DM API answered this reconcile
   */
  public static Verdict evaluate(
      boolean paused, int masterWanted, Optional<StatefulSet> masterSet, Map<String, MasterMember> masters,
      String leader, Optional<Integer> workerWanted, Optional<StatefulSet> workerSet,
      Map<String, WorkerMember> workers, boolean synced) {
    if (paused) {
      return new Verdict("False", "Paused", "spec.paused is true: the operator leaves the cluster alone");
    }
    if (!synced) {
      return new Verdict("False", "DMMasterUnreachable", "the dm-master API did not answer");
    }
    Optional<String> master = setNotReady("dm-master", masterWanted, masterSet);
    if (master.isPresent()) {
      return new Verdict("False", "MasterStatefulSetNotUpToDate", master.get());
    }
    long healthy = masters.values().stream().filter(m -> Boolean.TRUE.equals(m.getHealth())).count();
    if (masters.size() != masterWanted || healthy != masterWanted) {
      return new Verdict("False", "MasterUnhealthy",
          healthy + " of " + masterWanted + " dm-master members are healthy (" + masters.size() + " members)");
    }
    if (masterWanted > 0 && (leader == null || leader.isEmpty())) {
      return new Verdict("False", "MasterUnhealthy", "dm-master has no leader");
    }
    if (workerWanted.isPresent()) {
      Optional<String> worker = setNotReady("dm-worker", workerWanted.get(), workerSet);
      if (worker.isPresent()) {
        return new Verdict("False", "WorkerStatefulSetNotUpToDate", worker.get());
      }
      long online = workers.values().stream().filter(w -> !"offline".equals(w.getStage())).count();
      if (online < workerWanted.get()) {
        return new Verdict("False", "WorkerUnhealthy",
            online + " of " + workerWanted.get() + " dm-workers are registered and online");
      }
    }
    return new Verdict("True", "Ready", "DM cluster is fully up and running");
  }

  private static Optional<String> setNotReady(String component, int wanted, Optional<StatefulSet> set) {
    if (set.isEmpty()) {
      return Optional.of(component + " StatefulSet does not exist yet");
    }
    StatefulSet sts = set.get();
    if (!ComponentPhase.isUpToDate(sts)) {
      return Optional.of(component + " StatefulSet is rolling out");
    }
    int ready = sts.getStatus().getReadyReplicas() == null ? 0 : sts.getStatus().getReadyReplicas();
    int replicas = sts.getSpec().getReplicas() == null ? 0 : sts.getSpec().getReplicas();
    if (replicas != wanted || ready != wanted) {
      return Optional.of(ready + " of " + wanted + " " + component + " pods are Ready");
    }
    return Optional.empty();
  }
}
