package io.tidb.operator.controller.tidbcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** TiProxy's Node reads: once per Node and {@link CachedNodeLabels#TTL}, not per reconcile. */
class CachedNodeLabelsTest {

  private Instant now = Instant.parse("2026-01-01T00:00:00Z");
  private final List<String> reads = new ArrayList<>();
  private final Map<String, Map<String, String>> nodes = new HashMap<>(Map.of(
      "node-1", Map.of("topology.kubernetes.io/zone", "z1"),
      "node-2", Map.of("topology.kubernetes.io/zone", "z2")));
  private final CachedNodeLabels labels = new CachedNodeLabels(
      name -> {
        reads.add(name);
        return Optional.ofNullable(nodes.get(name));
      },
      new Clock() {
        @Override
        public ZoneOffset getZone() {
          return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
          return this;
        }

        @Override
        public Instant instant() {
          return now;
        }
      });

  @Test
  void aNodeIsReadOncePerTtl() {
    assertEquals(Optional.of(Map.of("topology.kubernetes.io/zone", "z1")), labels.of("node-1"));
    now = now.plusSeconds(30);
    assertEquals(Optional.of(Map.of("topology.kubernetes.io/zone", "z1")), labels.of("node-1"));
    assertEquals(Optional.of(Map.of("topology.kubernetes.io/zone", "z2")), labels.of("node-2"),
        "another Node is read at once");
    assertEquals(List.of("node-1", "node-2"), reads);

    nodes.put("node-1", Map.of("topology.kubernetes.io/zone", "z3"));
    now = now.plus(CachedNodeLabels.TTL);
    assertEquals(Optional.of(Map.of("topology.kubernetes.io/zone", "z3")), labels.of("node-1"),
        "a relabelled Node is seen after the TTL");
    assertEquals(List.of("node-1", "node-2", "node-1"), reads);
  }

  @Test
  void aMissingOrUnreadableNodeIsNotAskedAgainWithinTheTtl() {
    assertEquals(Optional.empty(), labels.of("gone"));
    assertEquals(Optional.empty(), labels.of("gone"));
    assertEquals(List.of("gone"), reads);
  }
}
