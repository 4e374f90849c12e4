package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A match is remembered for one version of the actual object and one desired object. */
class MatchMemoTest {

  private static ConfigMap stored(String uid, String version) {
    return new ConfigMapBuilder().withNewMetadata().withName("basic-pd").withNamespace("ns").withUid(uid)
        .withResourceVersion(version).endMetadata().build();
  }

  @Test
  void aMatchHoldsForTheSameVersionAndTheSameDesiredObjectOnly() {
    MatchMemo memo = new MatchMemo(10);
    byte[] desired = MatchMemo.digest("{\"data\":{\"a\":\"1\"}}");
    MatchMemo.Key v1 = MatchMemo.key(stored("u1", "7"), "tidb-operator").orElseThrow();
    assertFalse(memo.matched(v1, desired), "nothing remembered yet");
    memo.remember(v1, desired);
    assertTrue(memo.matched(v1, desired));
    assertFalse(memo.matched(v1, MatchMemo.digest("{\"data\":{\"a\":\"2\"}}")), "another desired object");
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
    byte[] d = MatchMemo.digest("{}");
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
}
