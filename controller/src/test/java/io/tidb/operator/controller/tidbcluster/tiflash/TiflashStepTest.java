package io.tidb.operator.controller.tidbcluster.tiflash;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.api.v1alpha1.cluster.TiflashStatus;
import io.tidb.operator.api.v1alpha1.cluster.TikvStore;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi;
import io.tidb.operator.controller.tidbcluster.pipeline.Prerequisite;
import io.tidb.operator.controller.tidbcluster.pipeline.ReadyCondition;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class TiflashStepTest {

  private final TiflashStep step = new TiflashStep(Prerequisite.NONE);

  private static TidbClusterStatus withStores(String... states) {
    Map<String, TikvStore> stores = new TreeMap<>();
    for (int i = 0; i < states.length; i++) {
      TikvStore s = new TikvStore();
      s.setId(Integer.toString(10 + i));
      s.setPodName("basic-tiflash-" + i);
      s.setState(states[i]);
      stores.put(s.getId(), s);
    }
    TiflashStatus tiflash = new TiflashStatus();
    tiflash.setSynced(true);
    tiflash.setStores(stores);
    TidbClusterStatus status = new TidbClusterStatus();
    status.setTiflash(tiflash);
    return status;
  }

  @Test
  void readyOnlyWithTheDesiredNumberOfUpStores() {
    ReadyCondition.ReadinessCheck ready = step.readiness();
    assertEquals(Optional.empty(), ready.notReady(withStores("Up", "Up"), 2));
    Optional<ReadyCondition.Verdict> down = ready.notReady(withStores("Up", "Disconnected"), 2);
    assertEquals("TiFlashStoreNotUp", down.orElseThrow().reason());
    assertEquals("TiFlash store(s) are not up", down.get().message());
    assertEquals("TiFlashStoreNotUp", ready.notReady(withStores("Up"), 2).orElseThrow().reason());
    assertEquals("TiFlashStoreNotUp", ready.notReady(new TidbClusterStatus(), 1).orElseThrow().reason());
  }

  @Test
  void onlyStoresLabelledEngineTiflashAreTiflashs() {
    assertEquals(true, TiflashStep.isTiflash(
        new ClusterApi.StoreView("1", "a:3930", "Up", 0, 0, Map.of("engine", "tiflash"))));
    assertEquals(false, TiflashStep.isTiflash(new ClusterApi.StoreView("2", "b:20160", "Up", 0)));
  }
}
