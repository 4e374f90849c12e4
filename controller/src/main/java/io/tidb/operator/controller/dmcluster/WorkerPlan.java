package io.tidb.operator.controller.dmcluster;

import io.tidb.operator.controller.tidbcluster.member.Rollout;
import io.tidb.operator.dmapi.DmWorkerInfo;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * dm-worker's scale rules, decided from what is observed. Pure.
 *
 * <ul>
 *   <li>No StatefulSet: create it with the spec's replicas.
 *   <li>The DM API did not answer: hold the replica count.
 *   <li>Scale out and in one pod at a time; the StatefulSet's own rolling update upgrades workers.
 *   <li>Scale-in is refused while the highest worker is bound to a source and no other online
 *       worker is free to take the source over (its migration would stop); upstream shrinks
 *       regardless.
 *   <li>A worker the API reports offline whose pod is beyond the replicas is deleted through the
 *       API (upstream's offline-worker cleanup).
 * </ul>
 *
 * @param replicas the StatefulSet's replicas to apply
 * @param refusal why a wanted scale-in does not happen, empty otherwise
 * @param waitingFor why the component is not done, empty when it is
 */
public record WorkerPlan(int replicas, Optional<String> refusal, Optional<String> waitingFor) {

  public static WorkerPlan decide(
      int wanted, Optional<Rollout> rollout, boolean synced, Map<String, DmWorkerInfo> workers) {
    if (rollout.isEmpty()) {
      return new WorkerPlan(wanted, Optional.empty(), Optional.empty());
    }
    int replicas = rollout.get().replicas();
    if (!synced) {
      return new WorkerPlan(replicas, Optional.empty(), Optional.of("the dm-master API to list the workers"));
    }
    if (wanted > replicas) {
      return new WorkerPlan(replicas + 1, Optional.empty(), Optional.of("dm-worker to scale out to " + wanted));
    }
    if (wanted < replicas) {
      String name = rollout.get().podName(replicas - 1);
      DmWorkerInfo worker = workers.get(name);
      if (worker != null && worker.bound()) {
        boolean freeOther = workers.values().stream()
            .anyMatch(w -> !w.name().equals(name) && DmWorkerInfo.FREE.equals(w.stage()));
        if (!freeOther) {
          String why = name + " is bound to source " + worker.source()
              + " and no other dm-worker is free to take it over; add a worker or stop the source's tasks first";
          return new WorkerPlan(replicas, Optional.of(why), Optional.of("dm-worker scale-in: " + why));
        }
      }
      return new WorkerPlan(replicas - 1, Optional.empty(), Optional.of("dm-worker to scale in to " + wanted));
    }
    return new WorkerPlan(replicas, Optional.empty(), Optional.empty());
  }

  /** Offline workers whose pods are beyond {@code replicas} (of StatefulSet {@code setName}). */
  public static Set<String> offlineToDelete(String setName, int replicas, List<DmWorkerInfo> workers) {
    Set<String> out = new TreeSet<>();
    for (DmWorkerInfo w : workers) {
      if (w.offline() && !desired(setName, replicas, w.name())) {
        out.add(w.name());
      }
    }
    return out;
  }

  private static boolean desired(String setName, int replicas, String pod) {
    String prefix = setName + "-";
    if (!pod.startsWith(prefix)) {
      return false;
    }
    try {
      int ordinal = Integer.parseInt(pod.substring(prefix.length()));
      return ordinal >= 0 && ordinal < replicas;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
