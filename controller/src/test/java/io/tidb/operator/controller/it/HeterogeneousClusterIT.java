package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TikvStore;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.SimulatedPdCluster;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A heterogeneous pair on the full local control plane: {@code basic} (3 PD, 3 TiKV, 2 TiDB) and
 * upstream's {@code basic-heterogeneous} manifest ({@code spec.cluster.name: basic}, no PD, no
 * namespace: it defaults to its own), whose TiKV, TiFlash and TiDB join basic's PD. The simulator is told
 * the second cluster's pods join the first's PD, as their start scripts say.
 */
@WithLocalControlPlane
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HeterogeneousClusterIT {

  private static final String A = "basic";
  private static final String B = "basic-heterogeneous";

  private static ControllerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "hetero-it", Duration.ofSeconds(5));
    h.simulator.clusters().join(new ClusterKey(h.namespace, B), new ClusterKey(h.namespace, A));
    h.create(Fixtures.basic(A));
    h.create(Fixtures.compat("heterogeneous__heterogeneous-cluster.yaml"));
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static Set<String> storePods(Map<String, TikvStore> stores) {
    return stores == null ? Set.of() : stores.values().stream()
        .map(TikvStore::getPodName)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static String script(String configMapPrefix) {
    return h.admin.configMaps().inNamespace(h.namespace).list().getItems().stream()
        .filter(cm -> cm.getMetadata().getName().startsWith(configMapPrefix))
        .map(ConfigMap::getData).map(d -> d.get("startup-script")).findFirst().orElseThrow();
  }

  @Test
  @Order(1)
  void thePairConvergesWithEachClusterReportingItsOwnStores() {
    // Each cluster records every store of the shared PD: a cluster can turn Ready before the
    // other's stores have joined, so both are awaited until each lists the other's too.
    Set<String> aStores = Set.of("basic-tikv-0", "basic-tikv-1", "basic-tikv-2");
    Set<String> bStores = Set.of("basic-heterogeneous-tikv-0");
    TidbCluster a = h.await(A, "Ready with its 3 stores and basic-heterogeneous's as peers",
        t -> Fixtures.ready(t) && aStores.equals(storePods(t.getStatus().getTikv().getStores()))
            && bStores.equals(storePods(t.getStatus().getTikv().getPeerStores())));
    TidbCluster b = h.await(B, "Ready with its store and basic's 3 as peers",
        t -> Fixtures.ready(t) && bStores.equals(storePods(t.getStatus().getTikv().getStores()))
            && aStores.equals(storePods(t.getStatus().getTikv().getPeerStores())));
    assertEquals(Set.of("basic-tikv-0", "basic-tikv-1", "basic-tikv-2"),
        storePods(a.getStatus().getTikv().getStores()));
    assertEquals(Set.of("basic-heterogeneous-tikv-0"), storePods(a.getStatus().getTikv().getPeerStores()));
    assertEquals(Set.of("basic-heterogeneous-tikv-0"), storePods(b.getStatus().getTikv().getStores()));
    assertEquals(Set.of("basic-tikv-0", "basic-tikv-1", "basic-tikv-2"),
        storePods(b.getStatus().getTikv().getPeerStores()));
    assertEquals(3, a.getStatus().getPd().getMembers().size());
    assertNull(b.getSpec().getPd());
    assertTrue(script(B + "-tikv").contains("--pd=basic-pd:2379"), script(B + "-tikv"));
    assertTrue(script(B + "-tidb").contains("--path=basic-pd:2379"), script(B + "-tidb"));
    assertEquals(5, h.pd(A).stores().size(), "one PD cluster holds all four TiKV stores and the TiFlash store");
    TidbCluster bWithFlash = h.await(B, "its TiFlash store Up, its own",
        t -> t.getStatus().getTiflash() != null && t.getStatus().getTiflash().getStores() != null
            && Set.of("basic-heterogeneous-tiflash-0").equals(storePods(t.getStatus().getTiflash().getStores())));
    assertNull(bWithFlash.getStatus().getTiflash().getPeerStores(),
        "basic has no TiFlash: no peer TiFlash store");
    String flashConfig = h.admin.configMaps().inNamespace(h.namespace).list().getItems().stream()
        .filter(cm -> cm.getMetadata().getName().startsWith(B + "-tiflash"))
        .map(ConfigMap::getData).map(d -> d.get("config_templ.toml")).findFirst().orElseThrow();
    assertTrue(flashConfig.contains("pd_addr = 'basic-pd." + h.namespace + ".svc:2379'"), flashConfig);
    assertTrue(flashConfig.contains("tidb_status_addr = 'basic-heterogeneous-tidb." + h.namespace
        + ".svc:10080'"), flashConfig);
    assertTrue(h.simulator.calls().stream().noneMatch(
        c -> c.cluster() != null && B.equals(c.cluster().name()) && "pd".equals(c.component())),
        "the operator asks basic's PD for basic-heterogeneous, never a PD of its own");
  }

  @Test
  @Order(2)
  void scaleInOfTheSecondClustersTikvCountsEveryUpStoreAgainstMaxReplicas() {
    h.edit(B, tc -> {
      tc.getSpec().getTikv().setReplicas(2);
      return tc;
    });
    h.await(B, "2 own stores, Ready", t -> Fixtures.ready(t)
        && storePods(t.getStatus().getTikv().getStores()).size() == 2);

    SimulatedPdCluster pd = h.pd(A);
    pd.setReplication(pd.replication().withMaxReplicas(5));
    h.simulator.recorder().clear();
    h.edit(B, tc -> {
      tc.getSpec().getTikv().setReplicas(1);
      return tc;
    });
    h.await(B, "a FailedScaleIn Event", t -> h.events(B).stream()
        .anyMatch(e -> "FailedScaleIn".equals(e.getReason())));
    String refused = h.events(B).stream().filter(e -> "FailedScaleIn".equals(e.getReason()))
        .findFirst().orElseThrow().getMessage();
    assertTrue(refused.contains("5 TiKV stores are Up in the PD cluster (3 of other TidbClusters)"),
        refused);
    assertEquals(List.of(), h.pdMutations(A), "no store deleted while max-replicas forbids it");

    pd.setReplication(pd.replication().withMaxReplicas(3));
    TidbCluster b = h.await(B, "1 own store, Ready", t -> Fixtures.ready(t)
        && storePods(t.getStatus().getTikv().getStores()).size() == 1);
    assertEquals(Set.of("basic-heterogeneous-tikv-0"), storePods(b.getStatus().getTikv().getStores()));
    assertTrue(h.pdMutations(A).stream().anyMatch(m -> m.startsWith("DELETE /pd/api/v1/store/")),
        h.pdMutations(A).toString());
    TidbCluster a = h.get(A);
    assertEquals(3, storePods(a.getStatus().getTikv().getStores()).size(),
        "basic's own stores are untouched");
  }
}
