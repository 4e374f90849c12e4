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

  /** Forgets every eviction record and every leader count kept for an upgrade. */
  static void forgetAll(TikvStatus status) {
    status.setEvictLeader(null);
    if (status.getStores() != null) {
      for (TikvStore s : status.getStores().values()) {
        s.setLeaderCountBeforeUpgrade(null);
      }
    }
  }
}
