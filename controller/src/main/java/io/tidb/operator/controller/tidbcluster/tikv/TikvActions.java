package io.tidb.operator.controller.tidbcluster.tikv;

import io.tidb.operator.api.v1alpha1.cluster.EvictLeaderStatus;
import io.tidb.operator.api.v1alpha1.cluster.TikvStatus;
import io.tidb.operator.api.v1alpha1.cluster.TikvStore;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.tidbcluster.member.MemberAction;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

/** The PD calls TiKV's scale-in and upgrade rules decide on. */
public final class TikvActions {

  private TikvActions() {}

  /**
   * Starts PD's evict-leader scheduler for a store and records it in {@code
   * status.tikv.evictLeader} (the timeout counts from {@code beginTime}); for an upgrade also the
   * store's leader count, so the rule can wait for leaders to come back afterwards.
   */
  public record BeginEvict(String storeId, String pod, int leaderCount, boolean forUpgrade)
      implements MemberAction {
    @Override
    public String reason() {
      return "EvictLeaderBegun";
    }

    @Override
    public void perform(ClusterContext ctx) throws IOException {
      ctx.api().beginEvictLeader(storeId);
      TikvStatus status = ctx.status().getTikv();
      record(status, pod, Conditions.timestamp(ctx.now()), forUpgrade ? "upgrade" : "scale-in");
      if (forUpgrade && status.getStores() != null && status.getStores().get(storeId) != null) {
        status.getStores().get(storeId).setLeaderCountBeforeUpgrade(leaderCount);
      }
    }
  }

  /** Stops PD's evict-leader scheduler for a store and forgets the eviction record. */
  public record EndEvict(String storeId, String pod) implements MemberAction {
    @Override
    public String reason() {
      return "EvictLeaderEnded";
    }

    @Override
    public void perform(ClusterContext ctx) throws IOException {
      ctx.api().endEvictLeader(storeId);
      TikvStatus status = ctx.status().getTikv();
      if (status.getEvictLeader() != null && pod != null) {
        Map<String, EvictLeaderStatus> m = new TreeMap<>(status.getEvictLeader());
        m.remove(pod);
        status.setEvictLeader(m.isEmpty() ? null : m);
      }
    }
  }

  /**
   * Starts PD's evict-leader scheduler for a store a user asked for (pod annotation {@code
   * tidb.pingcap.com/evict-leader}) and records it: {@code podCreateTime}, {@code value}, and
   * {@code beginTime} kept from an earlier record of the pod (so the timeout is not restarted).
   */
  public record BeginUserEvict(String storeId, String pod, String podCreateTime, String value)
      implements MemberAction {
    @Override
    public String reason() {
      return "EvictLeaderBegun";
    }

    @Override
    public void perform(ClusterContext ctx) throws IOException {
      ctx.api().beginEvictLeader(storeId);
      TikvStatus status = ctx.status().getTikv();
      Map<String, EvictLeaderStatus> m =
          new TreeMap<>(status.getEvictLeader() == null ? Map.of() : status.getEvictLeader());
      EvictLeaderStatus before = m.get(pod);
      EvictLeaderStatus e = new EvictLeaderStatus();
      e.setPodCreateTime(podCreateTime);
      e.setBeginTime(
          before != null && before.getBeginTime() != null
              ? before.getBeginTime()
              : Conditions.timestamp(ctx.now()));
      e.setValue(value);
      m.put(pod, e);
      status.setEvictLeader(m);
    }
  }

  /** Forgets the eviction record of a pod whose store is gone (no PD call). */
  public record ForgetEvict(String pod) implements MemberAction {
    @Override
    public String reason() {
      return "EvictLeaderEnded";
    }

    @Override
    public void perform(ClusterContext ctx) {
      TikvStatus status = ctx.status().getTikv();
      if (status.getEvictLeader() != null) {
        Map<String, EvictLeaderStatus> m = new TreeMap<>(status.getEvictLeader());
        m.remove(pod);
        status.setEvictLeader(m.isEmpty() ? null : m);
      }
    }
  }

  /** {@code DELETE /pd/api/v1/store/{id}}: PD sets the store Offline and moves its regions away. */
  public record DeleteStore(String storeId, String pod) implements MemberAction {
    @Override
    public String reason() {
      return "StoreDeleted";
    }

    @Override
    public void perform(ClusterContext ctx) throws IOException {
      ctx.api().deleteStore(storeId);
    }
  }

  /**
   * {@code POST /pd/api/v1/store/{id}/state?state=Up}: the spec wants the store's pod again, so
   * its removal is cancelled while it is still Offline (before PD has moved every region away).
   */
  public record CancelRemoval(String storeId, String pod) implements MemberAction {
    @Override
    public String reason() {
      return "StoreRemovalCancelled";
    }

    @Override
    public void perform(ClusterContext ctx) throws IOException {
      ctx.api().cancelStoreRemoval(storeId);
    }
  }

  /** Records an eviction that began at {@code beginTime} unless one is recorded for the pod. */
  static void record(TikvStatus status, String pod, String beginTime, String value) {
    Map<String, EvictLeaderStatus> m =
        new TreeMap<>(status.getEvictLeader() == null ? Map.of() : status.getEvictLeader());
    if (m.containsKey(pod)) {
      return;
    }
    EvictLeaderStatus e = new EvictLeaderStatus();
    e.setBeginTime(beginTime);
    e.setValue(value);
    m.put(pod, e);
    status.setEvictLeader(m);
  }

  /**
   * Forgets every eviction record of a finished operation and every leader count kept for an
   * upgrade; the records of evictions a user asked for (value {@code none} or {@code delete-pod})
   * stay until {@link TikvEvictLeaderAnnotation} ends them.
   */
  static void forgetAll(TikvStatus status) {
    if (status.getEvictLeader() != null) {
      Map<String, EvictLeaderStatus> m = new TreeMap<>(status.getEvictLeader());
      m.values().removeIf(e -> !TikvEvictLeaderAnnotation.userValue(e.getValue()));
      status.setEvictLeader(m.isEmpty() ? null : m);
    }
    if (status.getStores() != null) {
      for (TikvStore s : status.getStores().values()) {
        s.setLeaderCountBeforeUpgrade(null);
      }
    }
  }
}
