package io.tidb.operator.controller.tidbcluster.member;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.cluster.FailureStore;
import io.tidb.operator.api.v1alpha1.cluster.TikvStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class StoreFailoverTest {

  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
  private static final Duration PERIOD = Duration.ofMinutes(5);
  private static final String LONG_AGO = NOW.minus(Duration.ofMinutes(6)).toString();
  private static final String RECENTLY = NOW.minus(Duration.ofMinutes(4)).toString();
  private static final Set<String> ALL_READY = Set.of("basic-tikv-0", "basic-tikv-1", "basic-tikv-2", "basic-tikv-3");

  private static TikvStore store(String id, int ordinal, String state, String since) {
    TikvStore s = new TikvStore();
    s.setId(id);
    s.setPodName("basic-tikv-" + ordinal);
    s.setState(state);
    s.setLastTransitionTime(since);
    return s;
  }

  /** Stores 1, 2, 3 on basic-tikv-0..2; store 2 in {@code state} since {@code since}. */
  private static Map<String, TikvStore> stores(String state, String since) {
    Map<String, TikvStore> m = new TreeMap<>();
    m.put("1", store("1", 0, "Up", LONG_AGO));
    m.put("2", store("2", 1, state, since));
    m.put("3", store("3", 2, "Up", LONG_AGO));
    return m;
  }

  private static Map<String, FailureStore> record(String id, int ordinal) {
    FailureStore r = new FailureStore();
    r.setStoreID(id);
    r.setPodName("basic-tikv-" + ordinal);
    r.setCreatedAt(LONG_AGO);
    Map<String, FailureStore> m = new TreeMap<>();
    m.put(id, r);
    return m;
  }

  private static StoreFailover.Result decide(
      Map<String, TikvStore> stores,
      Map<String, FailureStore> records,
      String uid,
      Integer max,
      boolean recover,
      String recoverByUid,
      Set<String> ready,
      boolean auto,
      boolean quiet) {
    return StoreFailover.decide(
        new StoreFailover.Facts(
            "basic-tikv", stores, records, uid, 3, max, recover, recoverByUid, ready, auto, quiet,
            PERIOD, NOW, "new-uid"));
  }

  @Test
  void aStoreDownLongerThanThePeriodIsRecorded() {
    StoreFailover.Result r =
        decide(stores("Down", LONG_AGO), null, null, 3, false, null, ALL_READY, true, true);
    assertEquals(Set.of("2"), r.records().keySet());
    FailureStore fs = r.records().get("2");
    assertEquals("basic-tikv-1", fs.getPodName());
    assertEquals("2", fs.getStoreID());
    assertEquals(NOW.toString(), fs.getCreatedAt());
    assertEquals("new-uid", r.failoverUid());
    assertEquals(1, r.recorded().size());
  }

  @Test
  void notADisconnectedStoreNorOneDownForLessThanThePeriod() {
    assertNull(decide(stores("Disconnected", LONG_AGO), null, null, 3, false, null, ALL_READY,
        true, true).records());
    assertNull(decide(stores("Down", RECENTLY), null, null, 3, false, null, ALL_READY, true, true)
        .records());
  }

  @Test
  void notWithoutAutoFailoverNorWhileBusyNorWithMaxZero() {
    assertNull(decide(stores("Down", LONG_AGO), null, null, 3, false, null, ALL_READY, false,
        true).records());
    assertNull(decide(stores("Down", LONG_AGO), null, null, 3, false, null, ALL_READY, true,
        false).records());
    assertNull(decide(stores("Down", LONG_AGO), null, null, 0, false, null, ALL_READY, true,
        true).records());
    assertNull(decide(stores("Down", LONG_AGO), null, null, null, false, null, ALL_READY, true,
        true).records());
  }

  @Test
  void aReplacementPodsStoreIsNeverRecorded() {
    Map<String, TikvStore> s = stores("Up", LONG_AGO);
    s.put("4", store("4", 3, "Down", LONG_AGO));
    assertNull(decide(s, null, null, 3, false, null, ALL_READY, true, true).records());
  }

  @Test
  void cappedByMaxFailoverCountAndNotRecordedTwice() {
    Map<String, TikvStore> s = stores("Down", LONG_AGO);
    s.put("3", store("3", 2, "Down", LONG_AGO));
    StoreFailover.Result capped =
        decide(s, record("2", 1), "uid", 1, false, null, ALL_READY, true, true);
    assertEquals(Set.of("2"), capped.records().keySet());
    assertTrue(capped.recorded().isEmpty());
    assertEquals("uid", capped.failoverUid());
    StoreFailover.Result both =
        decide(s, record("2", 1), "uid", 3, false, null, ALL_READY, true, true);
    assertEquals(Set.of("2", "3"), both.records().keySet());
    assertEquals(1, both.recorded().size());
  }

  @Test
  void noAutomaticShrinkWhenTheStoreComesBack() {
    StoreFailover.Result r =
        decide(stores("Up", RECENTLY), record("2", 1), "uid", 3, false, null, ALL_READY, true,
            true);
    assertEquals(Set.of("2"), r.records().keySet());
    assertEquals("uid", r.failoverUid());
  }

  @Test
  void recoverFailoverClearsRecordsOnceEverySpecPodIsReadyAndUp() {
    StoreFailover.Result r =
        decide(stores("Up", RECENTLY), record("2", 1), "uid", 3, true, null, ALL_READY, true,
            false);
    assertNull(r.records());
    assertNull(r.failoverUid());
    assertTrue(r.recovered());
    StoreFailover.Result stillDown =
        decide(stores("Down", LONG_AGO), record("2", 1), "uid", 3, true, null, ALL_READY, true,
            true);
    assertEquals(Set.of("2"), stillDown.records().keySet());
    StoreFailover.Result notReady =
        decide(stores("Up", RECENTLY), record("2", 1), "uid", 3, true, null,
            Set.of("basic-tikv-0", "basic-tikv-2"), true, true);
    assertEquals(Set.of("2"), notReady.records().keySet());
  }

  @Test
  void recoverByUidClearsOnlyTheFailoverWithThatUid() {
    StoreFailover.Result other =
        decide(stores("Up", RECENTLY), record("2", 1), "uid", 3, false, "other", ALL_READY, true,
            true);
    assertEquals(Set.of("2"), other.records().keySet());
    StoreFailover.Result same =
        decide(stores("Up", RECENTLY), record("2", 1), "uid", 3, false, "uid", ALL_READY, true,
            true);
    assertNull(same.records());
    assertTrue(same.recovered());
  }

  @Test
  void recoveryDoesNotNeedAutoFailover() {
    StoreFailover.Result r =
        decide(stores("Up", RECENTLY), record("2", 1), "uid", 3, true, null, ALL_READY, false,
            true);
    assertTrue(r.recovered());
  }

  @Test
  void aRecordOfAPodTheSpecNoLongerAsksForIsDropped() {
    StoreFailover.Result r =
        decide(stores("Up", RECENTLY), record("9", 5), "uid", 3, false, null, ALL_READY, true,
            true);
    assertNull(r.records());
  }

  /** The same rule serves TiFlash: only the pods of the StatefulSet it is given count. */
  @Test
  void onlyThePodsOfTheGivenStatefulSetAreFailedOver() {
    TikvStore flash = store("7", 1, "Down", LONG_AGO);
    flash.setPodName("basic-tiflash-1");
    Map<String, TikvStore> stores = new TreeMap<>(Map.of("7", flash));
    StoreFailover.Result asTiflash = StoreFailover.decide(new StoreFailover.Facts(
        "basic-tiflash", stores, null, null, 3, 1, false, null, Set.of("basic-tiflash-0"), true, true,
        PERIOD, NOW, "new-uid"));
    assertEquals(Set.of("7"), asTiflash.records().keySet());
    StoreFailover.Result asTikv = StoreFailover.decide(new StoreFailover.Facts(
        "basic-tikv", stores, null, null, 3, 1, false, null, Set.of(), true, true,
        PERIOD, NOW, "new-uid"));
    assertNull(asTikv.records(), "a TiFlash pod is no TiKV replica");
  }
}
