package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TiflashSpec;
import io.tidb.operator.api.v1alpha1.cluster.TikvStore;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.SimulatedReplicationConfig;
import io.tidb.operator.pdsim.SimulatedStore;
import io.tidb.operator.pdsim.SimulatedTiflashServers;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * TiFlash on the full local control plane with the PD simulator: a cluster with two TiFlash pods
 * (spec.tiflash of upstream's examples/heterogeneous) is Ready only once both TiFlash stores,
 * labelled {@code engine=tiflash}, are Up; placement rules switched off in PD are switched back
 * on at the next resync; TiFlash 2→1 deletes the store of the highest ordinal, waits for
 * Tombstone, then shrinks; a version upgrade rolls PD, then TiFlash, then TiKV, then TiDB, and
 * the next TiFlash pod waits until the upgraded one reports Running on its store status.
 */
@WithLocalControlPlane
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TiflashIT {

  private static final String NAME = "flash";

  private static ControllerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "tiflash-it", Duration.ofSeconds(10));
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static TidbCluster withTiflash() {
    TidbCluster tc = Fixtures.small(NAME, "RollingUpdate");
    TiflashSpec tiflash = ApiObjects.parse("""
        baseImage: pingcap/tiflash
        maxFailoverCount: 0
        replicas: 2
        storageClaims:
          - resources:
              requests:
                storage: 100Gi
        """, TiflashSpec.class);
    tc.getSpec().setTiflash(tiflash);
    return tc;
  }

  private static StatefulSet sts(String name) {
    return h.admin.apps().statefulSets().inNamespace(h.namespace).withName(name).get();
  }

  @Test
  @Order(1)
  void comesUpReadyOnlyWithBothTiflashStoresUp() {
    h.create(withTiflash());
    TidbCluster tc = h.awaitReady(NAME);

    Map<String, TikvStore> stores = tc.getStatus().getTiflash().getStores();
    assertEquals(2, stores.size(), stores.toString());
    assertTrue(stores.values().stream().allMatch(s -> "Up".equals(s.getState())), stores.toString());
    assertEquals(List.of("flash-tiflash-0", "flash-tiflash-1"),
        stores.values().stream().map(TikvStore::getPodName).sorted().toList());
    assertEquals(1, tc.getStatus().getTikv().getStores().size(), "TiFlash stores are not TiKV's");
    for (SimulatedStore s : h.pd(NAME).stores()) {
      boolean flash = s.podName().startsWith("flash-tiflash-");
      assertEquals(flash ? "tiflash" : null, s.labels().get("engine"), s.toString());
    }
    StatefulSet set = sts("flash-tiflash");
    assertEquals(List.of("data0"),
        set.getSpec().getVolumeClaimTemplates().stream().map(c -> c.getMetadata().getName()).toList());
    assertEquals("pingcap/tiflash:" + tc.getSpec().getVersion(),
        set.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
    assertTrue(h.admin.services().inNamespace(h.namespace).withName("flash-tiflash-peer").get() != null);
  }

  @Test
  @Order(2)
  void placementRulesSwitchedOffInPdAreSwitchedBackOn() {
    h.simulator.recorder().clear();
    SimulatedReplicationConfig r = h.pd(NAME).replication();
    h.pd(NAME).setReplication(new SimulatedReplicationConfig(r.maxReplicas(), r.locationLabels(),
        r.strictlyMatchLabel(), false, r.enablePlacementRulesCache(), r.isolationLevel()));
    Await.until("placement rules on again", ControllerHarness.CONVERGE,
        () -> h.pd(NAME).replication().enablePlacementRules(), on -> on);
    assertEquals(List.of("POST /pd/api/v1/config/replicate"), h.pdMutations(NAME));
    Await.until("Event PlacementRulesEnabled", ControllerHarness.CONVERGE,
        () -> h.events(NAME), events -> events.stream()
            .anyMatch(e -> "PlacementRulesEnabled".equals(e.getReason())));
  }

  @Test
  @Order(3)
  void scaleInDeletesTheStoreWaitsForTombstoneThenShrinks() {
    TidbCluster before = h.get(NAME);
    String id = before.getStatus().getTiflash().getStores().values().stream()
        .filter(s -> "flash-tiflash-1".equals(s.getPodName()))
        .findFirst().orElseThrow().getId();
    // A table with 2 TiFlash replicas: the scale-in to 1 is refused, nothing deleted.
    h.pd(NAME).setTiflashReplicas(45, 2);
    h.simulator.recorder().clear();
    h.edit(NAME, tc -> {
      tc.getSpec().getTiflash().setReplicas(1);
      return tc;
    });
    h.await(NAME, "a FailedScaleIn Event", t -> h.events(NAME).stream()
        .anyMatch(e -> "FailedScaleIn".equals(e.getReason())));
    String refused = h.events(NAME).stream().filter(e -> "FailedScaleIn".equals(e.getReason()))
        .findFirst().orElseThrow().getMessage();
    assertTrue(refused.contains("2 TiFlash stores are Up and a table asks for 2 TiFlash replicas"),
        refused);
    assertEquals(List.of(), h.pdMutations(NAME), "no store deleted while a table needs both");

    h.pd(NAME).setTiflashReplicas(45, 1);
    TidbCluster tc = h.await(NAME, "1 TiFlash store, Ready", t ->
        Fixtures.ready(t) && t.getStatus().getTiflash().getStores().size() == 1
            && sts("flash-tiflash").getSpec().getReplicas() == 1);

    assertEquals(List.of("DELETE /pd/api/v1/store/" + id), h.pdMutations(NAME));
    assertTrue(tc.getStatus().getTiflash().getTombstoneStores().containsKey(id),
        String.valueOf(tc.getStatus().getTiflash().getTombstoneStores()));
    assertTrue(h.admin.persistentVolumeClaims().inNamespace(h.namespace).withName("data0-flash-tiflash-1")
        .get().getMetadata().getAnnotations().containsKey("tidb.pingcap.com/pvc-defer-deleting"),
        "the removed pod's volume is kept, marked for deferred deletion");
  }

  @Test
  @Order(4)
  void aVersionUpgradeRollsPdThenTiflashThenTikvThenTidb() {
    h.edit(NAME, tc -> {
      tc.getSpec().getTiflash().setReplicas(2);
      return tc;
    });
    h.await(NAME, "2 TiFlash stores again, Ready", t ->
        Fixtures.ready(t) && t.getStatus().getTiflash().getStores().size() == 2);
    Instant start = Instant.now();
    SimulatedTiflashServers flash = h.simulator.clusters().tiflash(new ClusterKey(h.namespace, NAME));
    flash.setStoreStatus("flash-tiflash-1", "Ready");
    h.edit(NAME, tc -> {
      tc.getSpec().setVersion("v8.5.8");
      return tc;
    });
    h.await(NAME, "the upgraded flash-tiflash-1 waited for on its store status", t ->
        Fixtures.condition(t, "Ready").map(c -> c.getMessage() != null
            && c.getMessage().contains("to report Running on /tiflash/store-status, it reports Ready"))
            .orElse(false));
    assertTrue(created("flash-tiflash-0").isBefore(start), "flash-tiflash-0 not replaced yet");
    assertTrue(h.simulator.recorder().calls(new ClusterKey(h.namespace, NAME)).stream()
        .anyMatch(c -> "tiflash".equals(c.component()) && "flash-tiflash-1".equals(c.instance())
            && "/tiflash/store-status".equals(c.path())));
    flash.setStoreStatus("flash-tiflash-1", SimulatedTiflashServers.RUNNING);
    h.await(NAME, "every pod on v8.5.8, Ready", t ->
        Fixtures.ready(t)
            && "pingcap/pd:v8.5.8".equals(t.getStatus().getPd().getImage())
            && "pingcap/tiflash:v8.5.8".equals(t.getStatus().getTiflash().getImage())
            && "pingcap/tikv:v8.5.8".equals(t.getStatus().getTikv().getImage())
            && "pingcap/tidb:v8.5.8".equals(t.getStatus().getTidb().getImage()));

    assertTrue(oldest("pd").isAfter(start.minusSeconds(1)), "PD was replaced");
    assertTrue(!oldest("tiflash").isBefore(newest("pd")), "TiFlash rolled after PD was done");
    assertTrue(!oldest("tikv").isBefore(newest("tiflash")), "TiKV rolled after TiFlash was done");
    assertTrue(!oldest("tidb").isBefore(newest("tikv")), "TiDB rolled after TiKV was done");
    assertTrue(!created("flash-tiflash-0").isBefore(created("flash-tiflash-1")),
        "TiFlash pods one at a time from the highest ordinal");
  }

  private static List<Pod> pods(String component) {
    return h.admin.pods().inNamespace(h.namespace)
        .withLabel("app.kubernetes.io/instance", NAME)
        .withLabel("app.kubernetes.io/component", component)
        .list().getItems();
  }

  private static Instant created(String pod) {
    return Instant.parse(h.admin.pods().inNamespace(h.namespace).withName(pod).get()
        .getMetadata().getCreationTimestamp());
  }

  private static Instant newest(String component) {
    return pods(component).stream().map(p -> Instant.parse(p.getMetadata().getCreationTimestamp()))
        .max(Instant::compareTo).orElseThrow();
  }

  private static Instant oldest(String component) {
    return pods(component).stream().map(p -> Instant.parse(p.getMetadata().getCreationTimestamp()))
        .min(Instant::compareTo).orElseThrow();
  }
}
