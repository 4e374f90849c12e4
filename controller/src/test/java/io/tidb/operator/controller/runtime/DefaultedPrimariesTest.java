package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.tidb.operator.api.validation.Violation;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** One defaulted copy per version of a primary, judged once. */
class DefaultedPrimariesTest {

  private final AtomicInteger judgedCount = new AtomicInteger();

  private final Function<TidbCluster, DefaultedPrimaries.Judged<TidbCluster>> judge =
      stored -> {
        judgedCount.incrementAndGet();
        TidbCluster copy = new TidbCluster();
        copy.setMetadata(new ObjectMetaBuilder(stored.getMetadata()).build());
        return new DefaultedPrimaries.Judged<>(copy, List.of(), new DerivedObjects(false));
      };

  private static TidbCluster stored(String uid, String version) {
    TidbCluster tc = new TidbCluster();
    tc.setMetadata(new ObjectMetaBuilder().withNamespace("ns").withName("basic").withUid(uid)
        .withResourceVersion(version).build());
    return tc;
  }

  @Test
  void aVersionIsKeptFromItsSecondReconcileOnAndANewerOneStartsOver() {
    DefaultedPrimaries<TidbCluster> primaries = new DefaultedPrimaries<>(10);
    DefaultedPrimaries.Judged<TidbCluster> first = primaries.of(stored("u1", "7"), judge);
    DefaultedPrimaries.Judged<TidbCluster> second = primaries.of(stored("u1", "7"), judge);
    assertNotSame(first, second, "the first reconcile of a version keeps nothing");
    assertSame(second, primaries.of(stored("u1", "7"), judge), "kept from the second on");
    assertSame(second, primaries.of(stored("u1", "7"), judge));
    assertEquals(2, judgedCount.get());

    DefaultedPrimaries.Judged<TidbCluster> newer = primaries.of(stored("u1", "8"), judge);
    assertNotSame(second, newer);
    assertEquals("8", newer.defaulted().getMetadata().getResourceVersion());
    assertNotSame(newer, primaries.of(stored("u1", "8"), judge), "version 8 seen once before: judged again");
    assertEquals(4, judgedCount.get());
    assertEquals(1, primaries.size(), "one entry per primary: the newer version replaced the older");

    primaries.of(stored("u2", "8"), judge);
    assertEquals(5, judgedCount.get(), "another primary with the same version number");
  }

  @Test
  void aResourceWhoseVersionChangesAtEveryReconcileKeepsNoCopy() {
    DefaultedPrimaries<TidbCluster> primaries = new DefaultedPrimaries<>(10);
    for (int v = 1; v <= 6; v++) {
      primaries.of(stored("u1", String.valueOf(v)), judge);
    }
    assertEquals(6, judgedCount.get(), "each version judged once");
    primaries.of(stored("u1", "6"), judge);
    assertEquals(7, judgedCount.get(), "the last version was seen once: nothing was kept for it yet");
  }

  @Test
  void aPrimaryNeverStoredIsJudgedEachTimeAndTheLeastRecentlyReconciledIsForgotten() {
    DefaultedPrimaries<TidbCluster> primaries = new DefaultedPrimaries<>(2);
    primaries.of(stored(null, "1"), judge);
    primaries.of(stored(null, "1"), judge);
    primaries.of(stored("u1", ""), judge);
    assertEquals(3, judgedCount.get());
    assertEquals(0, primaries.size());

    for (String uid : new String[] {"a", "a", "b", "b", "a", "c", "c"}) { // a used again: b is now the eldest
      primaries.of(stored(uid, "1"), judge);
    }
    assertEquals(2, primaries.size());
    int before = judgedCount.get();
    primaries.of(stored("a", "1"), judge);
    assertEquals(before, judgedCount.get(), "a kept");
    primaries.of(stored("b", "1"), judge);
    assertEquals(before + 1, judgedCount.get(), "b forgotten, judged again");
  }

  @Test
  void theViolationsAreKeptAsTheyWereFound() {
    DefaultedPrimaries<TidbCluster> primaries = new DefaultedPrimaries<>(10);
    List<Violation> found = new ArrayList<>(List.of(Violation.required("spec.pd.replicas", "must be set")));
    primaries.of(stored("u1", "1"), judge);
    DefaultedPrimaries.Judged<TidbCluster> judged =
        primaries.of(stored("u1", "1"), s -> new DefaultedPrimaries.Judged<>(s, found, new DerivedObjects(false)));
    found.clear();
    assertEquals(1, judged.violations().size(), "a copy of the list the rules returned");
    assertSame(judged, primaries.of(stored("u1", "1"), judge));
  }
}
