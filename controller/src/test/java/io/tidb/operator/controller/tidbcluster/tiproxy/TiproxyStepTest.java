package io.tidb.operator.controller.tidbcluster.tiproxy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.api.v1alpha1.cluster.TiproxyMember;
import io.tidb.operator.api.v1alpha1.cluster.TiproxyStatus;
import io.tidb.operator.controller.tidbcluster.pipeline.Prerequisite;
import io.tidb.operator.controller.tidbcluster.pipeline.ReadyCondition;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class TiproxyStepTest {

  private final TiproxyStep step = new TiproxyStep(Prerequisite.NONE);

  private static TidbClusterStatus withMembers(Boolean... health) {
    Map<String, TiproxyMember> members = new TreeMap<>();
    for (int i = 0; i < health.length; i++) {
      TiproxyMember m = new TiproxyMember();
      m.setName("basic-tiproxy-" + i);
      m.setHealth(health[i]);
      members.put(m.getName(), m);
    }
    TiproxyStatus tiproxy = new TiproxyStatus();
    tiproxy.setSynced(true);
    tiproxy.setMembers(members);
    TidbClusterStatus status = new TidbClusterStatus();
    status.setTiproxy(tiproxy);
    return status;
  }

  @Test
  void readyOnlyWithTheDesiredNumberOfHealthyMembers() {
    ReadyCondition.ReadinessCheck ready = step.readiness();
    assertEquals(Optional.empty(), ready.notReady(withMembers(true, true), 2));
    ReadyCondition.Verdict sick = ready.notReady(withMembers(true, false), 2).orElseThrow();
    assertEquals("TiProxyUnhealthy", sick.reason());
    assertEquals("TiProxy(s) are not healthy", sick.message());
    assertEquals("TiProxyUnhealthy", ready.notReady(withMembers(true), 2).orElseThrow().reason());
    assertEquals("TiProxyUnhealthy",
        ready.notReady(new TidbClusterStatus(), 1).orElseThrow().reason());
  }

  @Test
  void theTransitionTimeMovesOnlyWhenTheHealthChanges() {
    Instant t0 = Instant.parse("2026-01-01T00:00:00.700Z");
    Instant t1 = t0.plusSeconds(60);
    TiproxyMember first = member(true);
    TiproxyHealth.keepTransitionTime(first, null, t0);
    assertEquals("2026-01-01T00:00:00Z", first.getLastTransitionTime());
    TiproxyMember same = TiproxyHealth.keepTransitionTime(member(true), first, t1);
    assertEquals("2026-01-01T00:00:00Z", same.getLastTransitionTime());
    TiproxyMember changed = TiproxyHealth.keepTransitionTime(member(false), same, t1);
    assertEquals("2026-01-01T00:01:00Z", changed.getLastTransitionTime());
  }

  private static TiproxyMember member(boolean health) {
    TiproxyMember m = new TiproxyMember();
    m.setName("basic-tiproxy-0");
    m.setHealth(health);
    return m;
  }
}
