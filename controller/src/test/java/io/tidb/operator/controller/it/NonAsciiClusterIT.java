package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.TextNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A cluster whose objects carry text beyond ASCII (a Chinese annotation, a TiKV log path with
 * Chinese in it, so the TidbCluster and its ConfigMap both do) comes up and still takes a change:
 * the watch events of such objects reach the operator's informers whole ({@code
 * AsciiWatchBodies}; without it fabric8 stopped the informer at the first of them).
 */
@WithLocalControlPlane
class NonAsciiClusterIT {

  private static ControllerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "non-ascii-cluster", Duration.ofSeconds(30));
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static String tikvConfig() {
    return h.admin.configMaps().inNamespace(h.namespace).withName("zh-tikv").get().getData().get("config-file");
  }

  @Test
  void aClusterWrittenInChineseComesUpAndTakesAChange() {
    TidbCluster tc = Fixtures.small("zh", "InPlace");
    tc.getMetadata().setAnnotations(new HashMap<>(Map.of("note", "生产集群，请勿删除 ✓")));
    tc.getSpec().getTikv().setConfig(
        tc.getSpec().getTikv().getConfig().with("log.file.filename", TextNode.valueOf("/var/log/数据库/tikv.log")));
    h.create(tc);
    h.awaitReady("zh");
    assertTrue(tikvConfig().contains("/var/log/数据库/tikv.log"), tikvConfig());

    h.edit("zh", t -> {
      t.getMetadata().getAnnotations().put("note", "生产集群 😀 已扩容");
      t.getSpec().getTikv().setConfig(
          t.getSpec().getTikv().getConfig().with("log.file.filename", TextNode.valueOf("/var/log/日志/tikv.log")));
      return t;
    });
    Await.until("ConfigMap zh-tikv rewritten with the new path", ControllerHarness.CONVERGE,
        NonAsciiClusterIT::tikvConfig, toml -> toml.contains("/var/log/日志/tikv.log"));
    h.await("zh", "Ready at the changed generation", Fixtures::ready);
  }
}
