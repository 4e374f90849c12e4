package io.tidb.operator.controller.tidbcluster.tidb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tidb.operator.api.v1alpha1.cluster.TidbStatus;
import io.tidb.operator.controller.tidbcluster.tidb.TidbMembership.ServerHealth;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TidbMembershipTest {

  @Test
  void recordsHealthNodeAndTransitionTime() {
    TidbStatus status = new TidbStatus();
    Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    Instant t1 = Instant.parse("2026-01-01T00:01:00Z");
    TidbMembership.record(
        status,
        List.of(new ServerHealth("basic-tidb-0", true, "n1"), new ServerHealth("basic-tidb-1", false, null)),
        t0);
    TidbMembership.record(
        status,
        List.of(new ServerHealth("basic-tidb-0", true, "n1"), new ServerHealth("basic-tidb-1", true, "n2")),
        t1);
    assertEquals("2026-01-01T00:00:00Z", status.getMembers().get("basic-tidb-0").getLastTransitionTime());
    assertEquals("2026-01-01T00:01:00Z", status.getMembers().get("basic-tidb-1").getLastTransitionTime());
    assertEquals("n2", status.getMembers().get("basic-tidb-1").getNode());
    TidbMembership.record(status, List.of(), t1);
    assertNull(status.getMembers());
  }
}
