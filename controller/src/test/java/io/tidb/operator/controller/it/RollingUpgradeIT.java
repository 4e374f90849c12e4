package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.pdsim.SimulatedStore;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A version upgrade of PD, TiKV and TiDB on the full local control plane with the PD simulator:
 * components one after another (PD, then TiKV, then TiDB), pods one at a time from the highest
 * ordinal, PD leadership moved off each pod before its turn, TiKV leaders evicted before each
 * store restarts and the eviction ended after; asserted on the exact PD calls.
 */
@WithLocalControlPlane
class RollingUpgradeIT {

  private static ControllerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "upgrade-it", Duration.ofSeconds(10));
    h.create(Fixtures.basic("up"));
    h.awaitReady("up");
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static List<Pod> pods(String component) {
    return h.admin.pods().inNamespace(h.namespace)
        .withLabel("app.kubernetes.io/instance", "up")
        .withLabel("app.kubernetes.io/component", component)
        .list().getItems();
  }

  @Test
  void upgradesPdThenTikvThenTidbOnePodAtATime() {
    h.pd("up").transferLeader("up-pd-2");
    h.await("up", "the leader up-pd-2 in status", t ->
        t.getStatus().getPd().getLeader() != null
            && "up-pd-2".equals(t.getStatus().getPd().getLeader().getName()));
    Map<String, Long> storeOfPod = new TreeMap<>();
    for (SimulatedStore s : h.pd("up").stores()) {
      storeOfPod.put(s.podName(), s.id());
    }
    // What the pods' images are while the upgrade runs: sampled, to see the mixed state.
    ConcurrentSkipListSet<String> tikvImages = new ConcurrentSkipListSet<>();
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    sampler.scheduleAtFixedRate(() -> {
      try {
        TidbCluster t = h.get("up");
        if (t.getStatus() != null && t.getStatus().getTikv() != null) {
          tikvImages.add(String.valueOf(t.getStatus().getTikv().getImage()));
        }
      } catch (RuntimeException e) {
        // the next sample
      }
    }, 0, 300, TimeUnit.MILLISECONDS);
    h.simulator.recorder().clear();
    Instant start = Instant.now();

    h.edit("up", tc -> {
      tc.getSpec().setVersion("v8.5.8");
      return tc;
    });
    TidbCluster tc;
    try {
      tc = h.await("up", "every pod on v8.5.8, Ready", t ->
          Fixtures.ready(t)
              && "pingcap/pd:v8.5.8".equals(t.getStatus().getPd().getImage())
              && "pingcap/tikv:v8.5.8".equals(t.getStatus().getTikv().getImage())
              && "pingcap/tidb:v8.5.8".equals(t.getStatus().getTidb().getImage()));
    } finally {
      sampler.shutdownNow();
    }

    List<String> expected = new ArrayList<>(List.of(
        "POST /pd/api/v1/leader/transfer/up-pd-0",
        "POST /pd/api/v1/leader/transfer/up-pd-2"));
    for (int i = 2; i >= 0; i--) {
      long id = storeOfPod.get("up-tikv-" + i);
      expected.add("POST /pd/api/v1/schedulers store=" + id);
      expected.add("DELETE /pd/api/v1/schedulers/evict-leader-scheduler-" + id);
    }
    assertEquals(expected, h.pdMutations("up"));
    assertTrue(h.pd("up").evictLeaderStoreIds().isEmpty());
    assertEquals("up-pd-2", tc.getStatus().getPd().getLeader().getName());

    // Components in order, and within each one pod at a time from the highest ordinal.
    Instant lastPd = newest(pods("pd"));
    Instant lastTikv = newest(pods("tikv"));
    assertTrue(oldest(pods("pd")).isAfter(start.minusSeconds(1)), "every PD pod was replaced");
    assertTrue(!oldest(pods("tikv")).isBefore(lastPd), "TiKV rolled after PD was done");
    assertTrue(!oldest(pods("tidb")).isBefore(lastTikv), "TiDB rolled after TiKV was done");
    for (String component : List.of("pd", "tikv", "tidb")) {
      List<Pod> ps = new ArrayList<>(pods(component));
      ps.sort((a, b) -> a.getMetadata().getName().compareTo(b.getMetadata().getName()));
      for (int i = 1; i < ps.size(); i++) {
        assertTrue(
            !created(ps.get(i - 1)).isBefore(created(ps.get(i))),
            ps.get(i).getMetadata().getName() + " was replaced before "
                + ps.get(i - 1).getMetadata().getName());
      }
      StatefulSet sts = h.admin.apps().statefulSets().inNamespace(h.namespace)
          .withName("up-" + component).get();
      assertEquals(sts.getSpec().getReplicas(),
          sts.getSpec().getUpdateStrategy().getRollingUpdate().getPartition(),
          component + ": the partition holds again at the replica count");
    }
    assertTrue(
        tikvImages.stream().anyMatch(i -> i.contains("pingcap/tikv:v8.5.7 (")
            && i.contains("pingcap/tikv:v8.5.8 (")),
        "status.tikv.image showed both images mid-rollout: " + tikvImages);
    List<String> reasons = h.events("up").stream().map(e -> e.getReason()).toList();
    for (String r : List.of("PDLeaderTransferred", "EvictLeaderBegun", "EvictLeaderEnded",
        "RollingUpdate", "Upgraded")) {
      assertTrue(reasons.contains(r), r + " in " + reasons);
    }
  }

  private static Instant created(Pod p) {
    return Instant.parse(p.getMetadata().getCreationTimestamp());
  }

  private static Instant newest(List<Pod> pods) {
    return pods.stream().map(RollingUpgradeIT::created).max(Instant::compareTo).orElseThrow();
  }

  private static Instant oldest(List<Pod> pods) {
    return pods.stream().map(RollingUpgradeIT::created).min(Instant::compareTo).orElseThrow();
  }
}
