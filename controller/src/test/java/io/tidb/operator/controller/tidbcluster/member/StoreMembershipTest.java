package io.tidb.operator.controller.tidbcluster.member;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.cluster.TikvStatus;
import io.tidb.operator.api.v1alpha1.cluster.TikvStore;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi.StoreView;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class StoreMembershipTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant T1 = Instant.parse("2026-01-01T00:01:00Z");

  private static StoreView store(String id, int ordinal, String state) {
    return new StoreView(
        id, "basic-tikv-" + ordinal + ".basic-tikv-peer.db.svc:20160", state, 10 * ordinal);
  }

  @Test
  void ownStoresPeersAndTombstones() {
    TikvStatus status = new TikvStatus();
    StoreMembership.record(
        status,
        "basic",
        "db",
        "tikv",
        List.of(
            store("1", 0, "Up"),
            store("4", 1, "Offline"),
            new StoreView("9", "x-tikv-0.x-tikv-peer.db.svc:20160", "Up", 3)),
        List.of(store("2", 2, "Tombstone")),
        T0);
    assertEquals(List.of("1", "4"), List.copyOf(status.getStores().keySet()));
    TikvStore s = status.getStores().get("4");
    assertEquals("basic-tikv-1", s.getPodName());
    assertEquals("basic-tikv-1.basic-tikv-peer.db.svc", s.getIp());
    assertEquals(10, s.getLeaderCount());
    assertEquals("Offline", s.getState());
    assertEquals(List.of("9"), List.copyOf(status.getPeerStores().keySet()));
    assertEquals(List.of("2"), List.copyOf(status.getTombstoneStores().keySet()));
    assertTrue(StoreMembership.anyUp(status));
  }

  @Test
  void stateChangeMovesTransitionTimeOnly() {
    TikvStatus status = new TikvStatus();
    StoreMembership.record(
        status, "basic", "db", "tikv", List.of(store("1", 0, "Up"), store("2", 1, "Up")), List.of(), T0);
    StoreMembership.record(
        status, "basic", "db", "tikv", List.of(store("1", 0, "Up"), store("2", 1, "Down")), List.of(), T1);
    assertEquals("2026-01-01T00:00:00Z", status.getStores().get("1").getLastTransitionTime());
    assertEquals("2026-01-01T00:01:00Z", status.getStores().get("2").getLastTransitionTime());
  }

  @Test
  void noStoresUpWhenNoneIsUp() {
    TikvStatus status = new TikvStatus();
    StoreMembership.record(
        status, "basic", "db", "tikv", List.of(store("1", 0, "Disconnected")), List.of(), T0);
    assertFalse(StoreMembership.anyUp(status));
    StoreMembership.record(status, "basic", "db", "tikv", List.of(), List.of(), T0);
    assertNull(status.getStores());
    assertFalse(StoreMembership.anyUp(status));
  }
}
