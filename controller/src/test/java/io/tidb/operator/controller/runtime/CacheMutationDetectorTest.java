package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.controller.fixtures.FakeOwnedObjects;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CacheMutationDetectorTest {

  private final FakeOwnedObjects cache = new FakeOwnedObjects()
      .add(new PodBuilder().withNewMetadata().withName("basic-tikv-0").withNamespace("ns")
          .addToLabels("a", "1").endMetadata().build())
      .add(new PodBuilder().withNewMetadata().withName("basic-tikv-1").withNamespace("ns")
          .endMetadata().build())
      .add(new ConfigMapBuilder().withNewMetadata().withName("basic-pd").withNamespace("ns")
          .endMetadata().addToData("config-file", "x").build());

  @Test
  void readingWithoutChangingPasses() {
    CacheMutationDetector detector = new CacheMutationDetector(cache);
    detector.podsOf("basic-tikv");
    ConfigMap cm = detector.get(ConfigMap.class, "basic-pd").orElseThrow();
    // A copy may be changed freely.
    new ConfigMapBuilder(cm).addToData("config-file", "y").build();
    assertDoesNotThrow(() -> detector.verify());
  }

  @Test
  void changingAnObjectHandedOutFailsNamingIt() {
    CacheMutationDetector detector = new CacheMutationDetector(cache);
    Pod pod = detector.podsOf("basic-tikv").get(0);
    detector.get(ConfigMap.class, "basic-pd").orElseThrow().getData().put("config-file", "y");
    pod.getMetadata().getLabels().put("a", "2");
    IllegalStateException e = assertThrows(IllegalStateException.class, detector::verify);
    assertTrue(e.getMessage().contains("Pod ns/basic-tikv-0"), e.getMessage());
    assertTrue(e.getMessage().contains("ConfigMap ns/basic-pd"), e.getMessage());
    assertFalse(e.getMessage().contains("basic-tikv-1"), e.getMessage());
  }

  @Test
  void anObjectIsRememberedAsItWasWhenFirstHandedOut() {
    CacheMutationDetector detector = new CacheMutationDetector(cache);
    ConfigMap cm = detector.get(ConfigMap.class, "basic-pd").orElseThrow();
    cm.getData().put("config-file", "y");
    detector.get(ConfigMap.class, "basic-pd");
    assertThrows(IllegalStateException.class, detector::verify);
  }

  @Test
  void absentObjectsAndCacheFillersPassThrough() {
    CacheMutationDetector detector = new CacheMutationDetector(cache);
    assertTrue(detector.get(StatefulSet.class, "basic-tikv").isEmpty());
    assertDoesNotThrow(() -> detector.verify());
  }

  @Test
  void onlyTheEnvironmentVariableTurnsItOn() {
    assertTrue(CacheMutationDetector.enabled(Map.of("KUBE_CACHE_MUTATION_DETECTOR", "true")));
    assertFalse(CacheMutationDetector.enabled(Map.of("KUBE_CACHE_MUTATION_DETECTOR", "1")));
    assertFalse(CacheMutationDetector.enabled(Map.of()));
    assertSame(cache, CacheMutationDetector.watch(cache, false));
    OwnedObjects watched = CacheMutationDetector.watch(cache, true);
    assertEquals(CacheMutationDetector.class, watched.getClass());
    watched.get(ConfigMap.class, "basic-pd").orElseThrow().getData().clear();
    assertThrows(IllegalStateException.class, () -> CacheMutationDetector.verify(watched));
    assertDoesNotThrow(() -> CacheMutationDetector.verify(cache));
  }

  @Test
  void aPrimaryChangedSinceItsSnapshotFailsNamingIt() {
    ConfigMap primary = new ConfigMapBuilder().withNewMetadata().withName("basic").withNamespace("ns")
        .endMetadata().addToData("k", "v").build();
    String before = CacheMutationDetector.snapshot(primary, true);
    assertDoesNotThrow(() -> CacheMutationDetector.verifyUnchanged(primary, before));
    primary.getData().put("k", "changed");
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> CacheMutationDetector.verifyUnchanged(primary, before));
    assertTrue(e.getMessage().contains("ConfigMap ns/basic"), e.getMessage());
    // Off: no snapshot, no check.
    assertEquals(null, CacheMutationDetector.snapshot(primary, false));
    assertDoesNotThrow(() -> CacheMutationDetector.verifyUnchanged(primary, null));
  }

  @Test
  void aSharedDefaultedCopyChangedSinceItsSnapshotFailsSayingLaterReconcilesReuseIt() {
    ConfigMap defaulted = new ConfigMapBuilder().withNewMetadata().withName("basic").withNamespace("ns")
        .endMetadata().addToData("k", "v").build();
    String before = CacheMutationDetector.snapshot(defaulted, true);
    assertDoesNotThrow(() -> CacheMutationDetector.verifyDefaultedUnchanged(defaulted, before));
    defaulted.getData().put("k", "changed");
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> CacheMutationDetector.verifyDefaultedUnchanged(defaulted, before));
    assertTrue(e.getMessage().contains("defaulted copy") && e.getMessage().contains("ConfigMap ns/basic"),
        e.getMessage());
    assertDoesNotThrow(() -> CacheMutationDetector.verifyDefaultedUnchanged(defaulted, null));
  }
}
