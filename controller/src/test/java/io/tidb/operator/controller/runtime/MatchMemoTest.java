package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import io.tidb.operator.controller.tidbcluster.tikv.TikvObjects;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A match is remembered for one version of the actual object and one desired object, for a while. */
class MatchMemoTest {

  private static ConfigMap stored(String uid, String version) {
    return new ConfigMapBuilder().withNewMetadata().withName("basic-pd").withNamespace("ns").withUid(uid)
        .withResourceVersion(version).endMetadata().build();
  }

  private static int desired(String value) {
    return MatchMemo.fingerprint(new ConfigMapBuilder().withNewMetadata().withName("basic-pd").endMetadata()
        .withData(Map.of("a", value)).build());
  }

  @Test
  void aMatchHoldsForTheSameVersionAndTheSameDesiredObjectOnly() {
    MatchMemo memo = new MatchMemo(10);
    int desired = desired("1");
    MatchMemo.Key v1 = MatchMemo.key(stored("u1", "7"), "tidb-operator").orElseThrow();
    assertFalse(memo.matched(v1, desired), "nothing remembered yet");
    memo.remember(v1, desired);
    assertTrue(memo.matched(v1, desired));
    assertFalse(memo.matched(v1, desired("2")), "another desired object");
    MatchMemo.Key v2 = MatchMemo.key(stored("u1", "8"), "tidb-operator").orElseThrow();
    assertFalse(memo.matched(v2, desired), "a newer version of the object");
    assertFalse(memo.matched(MatchMemo.key(stored("u1", "7"), "").orElseThrow(), desired), "another manager");
    memo.remember(v2, desired);
    assertEquals(1, memo.size(), "one entry per object: the newer version replaced the older");
  }

  @Test
  void anObjectNeverStoredHasNoKeyAndTheLeastRecentlyUsedIsForgotten() {
    assertEquals(Optional.empty(), MatchMemo.key(stored(null, "7"), "m"));
    assertEquals(Optional.empty(), MatchMemo.key(stored("u1", null), "m"));
    MatchMemo memo = new MatchMemo(2);
    int d = desired("x");
    MatchMemo.Key a = MatchMemo.key(stored("a", "1"), "m").orElseThrow();
    MatchMemo.Key b = MatchMemo.key(stored("b", "1"), "m").orElseThrow();
    MatchMemo.Key c = MatchMemo.key(stored("c", "1"), "m").orElseThrow();
    memo.remember(a, d);
    memo.remember(b, d);
    assertTrue(memo.matched(a, d), "a used again: b is now the least recently used");
    memo.remember(c, d);
    assertEquals(2, memo.size());
    assertTrue(memo.matched(a, d));
    assertFalse(memo.matched(b, d), "forgotten");
    assertTrue(memo.matched(c, d));
  }

  @Test
  void aMatchIsTrustedForTheMaximumAgeOnly() {
    AtomicLong now = new AtomicLong(1_000);
    MatchMemo memo = new MatchMemo(10, Duration.ofMinutes(5), now::get);
    MatchMemo.Key v1 = MatchMemo.key(stored("u1", "7"), "m").orElseThrow();
    memo.remember(v1, desired("1"));
    now.addAndGet(Duration.ofMinutes(5).minusNanos(1).toNanos());
    assertTrue(memo.matched(v1, desired("1")));
    now.addAndGet(1);
    assertFalse(memo.matched(v1, desired("1")), "compared again after five minutes");
    memo.remember(v1, desired("1"));
    assertTrue(memo.matched(v1, desired("1")), "and trusted again once it matched");
  }

  /** The memo only pays off if building the same desired object twice gives the same fingerprint. */
  @ParameterizedTest
  @ValueSource(strings = {"basic", "advanced", "full"})
  void aStatefulSetBuiltTwiceHasOneFingerprintAndAnotherPlanAnother(String name) {
    TidbCluster tc = TestClusters.load(name);
    StatefulSet once = TikvObjects.statefulSet(tc, TikvObjects.configMap(tc, Optional.empty()), StatefulSetPlan.holding(3));
    StatefulSet again = TikvObjects.statefulSet(
        TestClusters.load(name), TikvObjects.configMap(tc, Optional.empty()), StatefulSetPlan.holding(3));
    StatefulSet scaled = TikvObjects.statefulSet(tc, TikvObjects.configMap(tc, Optional.empty()), StatefulSetPlan.holding(4));
    assertEquals(MatchMemo.fingerprint(once), MatchMemo.fingerprint(again));
    assertNotEquals(MatchMemo.fingerprint(once), MatchMemo.fingerprint(scaled));
  }
}
