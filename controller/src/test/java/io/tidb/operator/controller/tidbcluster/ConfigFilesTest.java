package io.tidb.operator.controller.tidbcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tidb.operator.api.config.TomlConfig;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.tidbcluster.pd.PdObjects;
import io.tidb.operator.controller.tidbcluster.tidb.TidbObjects;
import io.tidb.operator.controller.tidbcluster.tikv.TikvObjects;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConfigFilesTest {

  @ParameterizedTest
  @ValueSource(strings = {"basic", "advanced", "full"})
  void everyConfigFileIsValidTomlHoldingTheUserConfig(String name) {
    TidbCluster tc = TestClusters.load(name);
    ObjectNode pd = TomlConfig.parse(PdObjects.configMap(tc, Optional.empty()).getData().get("config-file"));
    ObjectNode tikv = TomlConfig.parse(TikvObjects.configMap(tc, Optional.empty()).getData().get("config-file"));
    ObjectNode tidb = TomlConfig.parse(TidbObjects.configMap(tc, Optional.empty()).getData().get("config-file"));
    for (String key : tc.getSpec().getPd().getConfig().tree().properties().stream().map(e -> e.getKey()).toList()) {
      assertEquals(tc.getSpec().getPd().getConfig().tree().get(key), pd.get(key), key);
    }
    for (String key : tc.getSpec().getTikv().getConfig().tree().properties().stream().map(e -> e.getKey()).toList()) {
      assertEquals(tc.getSpec().getTikv().getConfig().tree().get(key), tikv.get(key), key);
    }
    for (String key : tc.getSpec().getTidb().getConfig().tree().properties().stream().map(e -> e.getKey()).toList()) {
      assertEquals(tc.getSpec().getTidb().getConfig().tree().get(key), tidb.get(key), key);
    }
  }

  @Test
  void emptyConfigIsAnEmptyFile() {
    TidbCluster tc = TestClusters.load("basic");
    assertEquals("", PdObjects.configMap(tc, Optional.empty()).getData().get("config-file"));
    tc.getSpec().getPd().setConfig(null);
    assertEquals("", PdObjects.configMap(tc, Optional.empty()).getData().get("config-file"));
  }

  @Test
  void forcedKeysWinOverTheUserValue() {
    TidbCluster tc = TestClusters.load("full");
    tc.getSpec().getPd().setConfig(io.tidb.operator.api.v1alpha1.cluster.ComponentConfig.ofToml(
        "[security]\ncacert-path = \"/elsewhere/ca.crt\"\n"));
    ObjectNode pd = TomlConfig.parse(PdObjects.configMap(tc, Optional.empty()).getData().get("config-file"));
    assertEquals("/var/lib/pd-tls/ca.crt", pd.get("security").get("cacert-path").asText());
    assertTrue(pd.get("dashboard").get("internal-proxy").asBoolean());
  }
}
