package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TikvStore;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.testsupport.Await;
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
import org.junit.jupiter.api.Test;

/**
 * Deleting one TidbCluster of a heterogeneous pair on the full local control plane: the second
 * cluster ({@code spec.cluster} referencing the first, its TiKV in the first's PD) goes with its
 * objects, and the first keeps its PD members and its own stores, Ready, with no PD call that
 * removes anything of it.
 */
@WithLocalControlPlane
class HeterogeneousDeletionIT {

  private static final String A = "basic";
  private static final String B = "basic-heterogeneous";

  private static ControllerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "hetero-del-it", Duration.ofSeconds(5));
    h.simulator.clusters().join(new ClusterKey(h.namespace, B), new ClusterKey(h.namespace, A));
    h.create(Fixtures.small(A, "RollingUpdate"));
    TidbCluster b = Fixtures.compat("heterogeneous__heterogeneous-cluster.yaml");
    b.getSpec().setTiflash(null);
    h.create(b);
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

  @Test
  void deletingTheSecondClusterLeavesTheFirstsMembersAndStores() {
    h.awaitReady(A);
    h.awaitReady(B);
    h.await(A, "the other cluster's store among the peer stores",
        t -> storePods(t.getStatus().getTikv().getPeerStores()).contains(B + "-tikv-0"));
    Set<String> membersBefore = h.get(A).getStatus().getPd().getMembers().keySet();
    h.simulator.recorder().clear();

    h.admin.resources(TidbCluster.class).inNamespace(h.namespace).withName(B).delete();
    Await.until("the second cluster and its pods gone", Duration.ofSeconds(120),
        () -> h.admin.resources(TidbCluster.class).inNamespace(h.namespace).withName(B).get() == null
            && h.admin.pods().inNamespace(h.namespace).withLabel("app.kubernetes.io/instance", B)
                .list().getItems().isEmpty(),
        gone -> gone);

    TidbCluster a = h.await(A, "Ready, its own store and PD member kept", t -> Fixtures.ready(t)
        && storePods(t.getStatus().getTikv().getStores()).equals(Set.of(A + "-tikv-0")));
    assertEquals(membersBefore, a.getStatus().getPd().getMembers().keySet());
    assertTrue(h.pd(A).stores().size() >= 1, "basic's store is still in PD");
    assertEquals(List.of(), h.pdMutations(A), "nothing was removed from the PD cluster");
    assertEquals(List.of(), h.pdMutations(B), "nor asked of a PD of the deleted cluster");
  }
}
