package io.tidb.operator.controller.tidbcluster.member;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PvLabelsTest {

  private static final Map<String, String> CLAIM_LABELS = Map.of(
      "app.kubernetes.io/component", "tikv",
      "app.kubernetes.io/name", "tidb-cluster",
      "app.kubernetes.io/managed-by", "tidb-operator",
      "app.kubernetes.io/instance", "basic",
      "tidb.pingcap.com/store-id", "4",
      "unrelated", "x");

  private static PersistentVolumeClaim claim(Map<String, String> labels, Map<String, String> ann) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata().withName("tikv-basic-tikv-0").withLabels(labels).withAnnotations(ann)
        .endMetadata().build();
  }

  private static PersistentVolume pv(Map<String, String> labels) {
    return new PersistentVolumeBuilder().withNewMetadata().withName("pv-1").withLabels(labels)
        .endMetadata().build();
  }

  @Test
  void aBareVolumeGetsTheClaimsLabelsAndTheNamespace() {
    PvLabels.Meta m = PvLabels.missing(
        claim(CLAIM_LABELS, Map.of("tidb.pingcap.com/pod-name", "basic-tikv-0")), "ns1", pv(null));
    assertEquals(Map.of(
        "app.kubernetes.io/namespace", "ns1",
        "app.kubernetes.io/component", "tikv",
        "app.kubernetes.io/name", "tidb-cluster",
        "app.kubernetes.io/managed-by", "tidb-operator",
        "app.kubernetes.io/instance", "basic",
        "tidb.pingcap.com/store-id", "4"), m.labels());
    assertEquals(Map.of("tidb.pingcap.com/pod-name", "basic-tikv-0"), m.annotations());
  }

  @Test
  void onlyWhatDiffersIsPatched() {
    Map<String, String> have = new java.util.HashMap<>(CLAIM_LABELS);
    have.put("app.kubernetes.io/namespace", "ns1");
    have.put("tidb.pingcap.com/store-id", "1");
    PvLabels.Meta m = PvLabels.missing(claim(CLAIM_LABELS, null), "ns1", pv(have));
    assertEquals(Map.of("tidb.pingcap.com/store-id", "4"), m.labels());
    assertTrue(m.annotations().isEmpty());
  }

  @Test
  void aLabelledVolumeNeedsNothing() {
    Map<String, String> have = new java.util.HashMap<>(CLAIM_LABELS);
    have.put("app.kubernetes.io/namespace", "ns1");
    assertTrue(PvLabels.missing(claim(CLAIM_LABELS, null), "ns1", pv(have)).isEmpty());
  }
}
