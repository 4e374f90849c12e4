package io.tidb.operator.controller.tidbcluster.pd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.cluster.PdStatus;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi.MemberHealth;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PdMembershipTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant T1 = Instant.parse("2026-01-01T00:01:00Z");

  private static MemberHealth own(int ordinal, boolean health) {
    return new MemberHealth(
        "basic-pd-" + ordinal,
        "1389273340615462721" + ordinal,
        List.of("http://basic-pd-" + ordinal + ".basic-pd-peer.db.svc:2379"),
        health);
  }

  @Test
  void splitsOwnMembersFromPeersAndPicksTheLeader() {
    PdStatus status = new PdStatus();
    MemberHealth peer =
        new MemberHealth(
            "other-pd-0", "7", List.of("http://other-pd-0.other-pd-peer.db.svc:2379"), true);
    PdMembership.record(
        status, "basic", "db", List.of(own(0, true), own(1, false), peer), Optional.of("basic-pd-0"), T0);
    assertEquals(List.of("basic-pd-0", "basic-pd-1"), List.copyOf(status.getMembers().keySet()));
    assertEquals(List.of("other-pd-0"), List.copyOf(status.getPeerMembers().keySet()));
    assertEquals("13892733406154627210", status.getMembers().get("basic-pd-0").getId());
    assertEquals(
        "http://basic-pd-0.basic-pd-peer.db.svc:2379",
        status.getMembers().get("basic-pd-0").getClientURL());
    assertEquals("basic-pd-0", status.getLeader().getName());
  }

  @Test
  void similarlyNamedClusterIsAPeer() {
    PdStatus status = new PdStatus();
    MemberHealth lookalike =
        new MemberHealth(
            "basic2-pd-0", "9", List.of("http://basic2-pd-0.basic2-pd-peer.db.svc:2379"), true);
    PdMembership.record(status, "basic", "db", List.of(lookalike), Optional.empty(), T0);
    assertNull(status.getMembers());
    assertEquals(1, status.getPeerMembers().size());
    assertNull(status.getLeader());
  }

  @Test
  void transitionTimeMovesOnlyWhenHealthFlips() {
    PdStatus status = new PdStatus();
    PdMembership.record(
        status, "basic", "db", List.of(own(0, true), own(1, true)), Optional.empty(), T0);
    PdMembership.record(
        status, "basic", "db", List.of(own(0, true), own(1, false)), Optional.empty(), T1);
    assertEquals("2026-01-01T00:00:00Z", status.getMembers().get("basic-pd-0").getLastTransitionTime());
    assertEquals("2026-01-01T00:01:00Z", status.getMembers().get("basic-pd-1").getLastTransitionTime());
  }

  @Test
  void unnamedMembersAreSkipped() {
    PdStatus status = new PdStatus();
    PdMembership.record(
        status, "basic", "db", List.of(new MemberHealth("", "5", null, false)), Optional.empty(), T0);
    assertNull(status.getMembers());
    assertNull(status.getPeerMembers());
  }

  @Test
  void quorumNeedsAMajorityHealthyAndSynced() {
    PdStatus status = new PdStatus();
    PdMembership.record(
        status,
        "basic",
        "db",
        List.of(own(0, true), own(1, true), own(2, false)),
        Optional.empty(),
        T0);
    assertFalse(PdMembership.quorum(status, 3), "not synced");
    status.setSynced(true);
    assertTrue(PdMembership.quorum(status, 3));
    PdMembership.record(
        status,
        "basic",
        "db",
        List.of(own(0, true), own(1, false), own(2, false)),
        Optional.empty(),
        T0);
    assertFalse(PdMembership.quorum(status, 3));
    assertFalse(PdMembership.quorum(status, 5));
  }

  @Test
  void quorumCountsThePdMembersOfOtherTidbClusters() {
    PdStatus status = new PdStatus();
    PdMembership.record(status, "basic", "db",
        List.of(own(0, true), peer(0, true), peer(1, false)), Optional.empty(), T0);
    status.setSynced(true);
    assertTrue(PdMembership.quorum(status, 1), "2 healthy of a 3-member PD cluster");
    PdMembership.record(status, "basic", "db",
        List.of(own(0, true), peer(0, true), peer(1, false), peer(2, false)), Optional.empty(), T0);
    assertFalse(PdMembership.quorum(status, 1), "2 healthy of 4 is no majority");
  }

  private static MemberHealth peer(int ordinal, boolean health) {
    return new MemberHealth("other-pd-" + ordinal, "7" + ordinal,
        List.of("http://other-pd-" + ordinal + ".other-pd-peer.db.svc:2379"), health);
  }
}
