package io.tidb.operator.controller.tidbcluster.tiproxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TiproxyLabelsTest {

  @Test
  void labelsNeedTiproxy110OrLaterAndAVersionTag() {
    assertTrue(TiproxyLabels.supported("v1.1.0"));
    assertTrue(TiproxyLabels.supported("1.3.1"));
    assertTrue(TiproxyLabels.supported("v2.0.0"));
    assertFalse(TiproxyLabels.supported("v1.0.9"));
    assertFalse(TiproxyLabels.supported("v0.9.0"));
    assertFalse(TiproxyLabels.supported("latest"));
    assertFalse(TiproxyLabels.supported(null));
  }

  @Test
  void theVersionIsTheImagesTag() {
    assertEquals("v1.3.0", TiproxyLabels.versionOf("pingcap/tiproxy:v1.3.0"));
    assertEquals("v1.1.0", TiproxyLabels.versionOf("registry:5000/pingcap/tiproxy:v1.1.0"));
    assertEquals("", TiproxyLabels.versionOf("registry:5000/pingcap/tiproxy"));
  }

  @Test
  void theZoneLabelIsTheFirstOfUpstreamsZoneLabelsThatPdLists() {
    assertEquals(Optional.of("zone"), TiproxyLabels.zoneLabel(List.of("host", "zone")));
    assertEquals(Optional.of("topology.kubernetes.io/zone"),
        TiproxyLabels.zoneLabel(List.of("topology.kubernetes.io/zone", "host")));
    assertEquals(Optional.of("zone"),
        TiproxyLabels.zoneLabel(List.of("topology.kubernetes.io/zone", "zone")));
    assertEquals(Optional.empty(), TiproxyLabels.zoneLabel(List.of("rack", "host")));
    assertEquals(Optional.empty(), TiproxyLabels.zoneLabel(List.of()));
  }

  @Test
  void eachLocationLabelIsReadFromTheNodeOrItsKubernetesName() {
    Map<String, String> node = Map.of(
        "topology.kubernetes.io/zone", "z1",
        "failure-domain.beta.kubernetes.io/zone", "old",
        "topology.kubernetes.io/region", "r1",
        "kubernetes.io/hostname", "node-1",
        "rack", "rk");
    assertEquals(Optional.of(Map.of("region", "r1", "zone", "z1", "host", "node-1", "rack", "rk")),
        TiproxyLabels.forNode(List.of("region", "zone", "rack", "host"), "zone", node));
  }

  @Test
  void zoneCopiesTheZoneLabelsValue() {
    assertEquals(Optional.of(Map.of("topology.kubernetes.io/zone", "z2", "zone", "z2")),
        TiproxyLabels.forNode(List.of("topology.kubernetes.io/zone"),
            "topology.kubernetes.io/zone", Map.of("topology.kubernetes.io/zone", "z2")));
    assertEquals(Optional.of(Map.of("host", "h", "zone", "")),
        TiproxyLabels.forNode(List.of("zone", "host"), "zone", Map.of("kubernetes.io/hostname", "h")),
        "a Node without the zone label: zone is empty, as upstream");
  }

  @Test
  void aNodeWithNoneOfTheLabelsGetsNothing() {
    assertEquals(Optional.empty(),
        TiproxyLabels.forNode(List.of("zone", "host"), "zone", Map.of("other", "x")));
  }
}
