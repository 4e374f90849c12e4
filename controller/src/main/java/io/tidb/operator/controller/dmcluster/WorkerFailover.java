package io.tidb.operator.controller.dmcluster;

import io.tidb.operator.api.v1alpha1.cluster.FailureStore;
import io.tidb.operator.api.v1alpha1.cluster.TikvStore;
import io.tidb.operator.api.v1alpha1.dm.WorkerFailureMember;
import io.tidb.operator.api.v1alpha1.dm.WorkerMember;
import io.tidb.operator.controller.tidbcluster.member.StoreFailover;
import io.tidb.operator.dmapi.DmWorkerInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * dm-worker failover, upstream's rules ({@code dm_worker_failover.go} and the worker member
 * manager), decided by the rule TiKV and TiFlash share ({@link StoreFailover}), a worker standing
 * for a store: a worker of a pod the spec asks for that the API has reported {@code offline} for
 * longer than the period is recorded in {@code status.worker.failureMembers}, up to {@code
 * maxFailoverCount} records, only while every desired pod exists but not every worker is online;
 * the StatefulSet gets one more replica per record. The records go only with {@code
 * recoverFailover: true} or {@code failover.recoverByUID} equal to {@code failoverUID}, once every
 * pod the spec asks for is Ready with an online worker. A record of a pod the spec no longer asks
 * for is dropped. Nothing is deleted through the API: the failed worker stays registered. Pure.
 */
public final class WorkerFailover {

  private WorkerFailover() {}

  /**
   * What one pass sees.
   *
   * @param statefulSet {@code <dc>-dm-worker}
   * @param members {@code status.worker.members}, by pod name
   * @param records {@code status.worker.failureMembers}, by pod name
   * @param failoverUid {@code status.worker.failoverUID}
   * @param specReplicas {@code spec.worker.replicas}
   * @param maxFailoverCount {@code spec.worker.maxFailoverCount}
   * @param recoverFailover {@code spec.worker.recoverFailover}
   * @param recoverByUid {@code spec.worker.failover.recoverByUID}
   * @param ready the dm-worker pods that are Ready
   * @param auto {@code --auto-failover}
   * @param quiet the workers were listed this reconcile, every desired pod has started and not
   *     every worker is online (upstream's {@code WorkerAllPodsStarted && !WorkerAllMembersReady})
   * @param newUid the UID to give a first failover
   */
  public record Facts(
      String statefulSet, Map<String, WorkerMember> members, Map<String, WorkerFailureMember> records,
      String failoverUid, int specReplicas, Integer maxFailoverCount, boolean recoverFailover,
      String recoverByUid, Set<String> ready, boolean auto, boolean quiet, Duration period, Instant now,
      String newUid) {}

  /**
   * @param records the new {@code failureMembers} (null when none)
   * @param failoverUid the new {@code failoverUID} (null when none)
   * @param recorded pods recorded in this pass, for Warning Events
   * @param recovered the records were cleared by {@code recoverFailover} / {@code recoverByUID}
   */
  public record Result(Map<String, WorkerFailureMember> records, String failoverUid, List<String> recorded,
      boolean recovered) {}

  public static Result decide(Facts f) {
    Map<String, TikvStore> stores = new TreeMap<>();
    if (f.members() != null) {
      f.members().forEach((pod, m) -> {
        TikvStore s = new TikvStore();
        s.setId(pod);
        s.setPodName(pod);
        s.setState(DmWorkerInfo.OFFLINE.equals(m.getStage()) ? "Down" : "Up");
        s.setLastTransitionTime(m.getLastTransitionTime());
        stores.put(pod, s);
      });
    }
    Map<String, FailureStore> records = new TreeMap<>();
    if (f.records() != null) {
      f.records().forEach((pod, r) -> {
        FailureStore s = new FailureStore();
        s.setPodName(r.getPodName());
        s.setStoreID(pod);
        s.setCreatedAt(r.getCreatedAt());
        records.put(pod, s);
      });
    }
    StoreFailover.Result r = StoreFailover.decide(new StoreFailover.Facts(f.statefulSet(), stores, records,
        f.failoverUid(), f.specReplicas(), f.maxFailoverCount(), f.recoverFailover(), f.recoverByUid(),
        f.ready(), f.auto(), f.quiet(), f.period(), f.now(), f.newUid()));
    Map<String, WorkerFailureMember> out = null;
    if (r.records() != null) {
      out = new TreeMap<>();
      for (FailureStore s : r.records().values()) {
        WorkerFailureMember w = new WorkerFailureMember();
        w.setPodName(s.getPodName());
        w.setCreatedAt(s.getCreatedAt());
        out.put(s.getPodName(), w);
      }
    }
    return new Result(out, r.failoverUid(), r.recorded().stream().map(FailureStore::getPodName).toList(),
        r.recovered());
  }

  /** The StatefulSet's replicas: the spec's plus one per record (upstream's {@code WorkerStsDesiredReplicas}). */
  public static int desiredReplicas(int specReplicas, Map<String, WorkerFailureMember> records) {
    return specReplicas + (records == null ? 0 : records.size());
  }
}
