package io.tidb.operator.api.defaulting.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.CompatExamples.Example;
import io.tidb.operator.api.CompatExamples;
import io.tidb.operator.api.TestClusters;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class TidbClusterDefaulterTest {

  /** A TidbCluster {@code d} with {@code spec} (YAML, indented as under {@code spec:}). */
  private static TidbCluster withSpec(String spec) {
    return TestClusters.parse(
        "apiVersion: pingcap.com/v1alpha1\nkind: TidbCluster\nmetadata: {name: d}\nspec:\n" + spec);
  }

  @Test
  void fillsUpstreamDefaults() {
    TidbCluster tc = withSpec("""
          version: v8.5.0
          pd: {replicas: 1}
          tikv: {replicas: 1}
          tidb: {replicas: 1}
          tiflash: {replicas: 1}
          ticdc: {replicas: 1}
          tiproxy: {replicas: 1}
          pump: {replicas: 1}
          pdms: [{name: tso, replicas: 1}]
        """);
    var spec = TidbClusterDefaulter.withDefaults(tc).getSpec();
    assertEquals("IfNotPresent", spec.getImagePullPolicy());
    assertEquals(false, spec.getTlsCluster().getEnabled());
    assertEquals(false, spec.getEnablePVReclaim());
    assertEquals("Retain", spec.getPvReclaimPolicy());
    assertEquals("pingcap/pd", spec.getPd().getBaseImage());
    assertEquals("pingcap/pd", spec.getPdms().get(0).getBaseImage());
    assertEquals("pingcap/tikv", spec.getTikv().getBaseImage());
    assertEquals("pingcap/tidb", spec.getTidb().getBaseImage());
    assertEquals("pingcap/tiflash", spec.getTiflash().getBaseImage());
    assertEquals("pingcap/ticdc", spec.getTicdc().getBaseImage());
    assertEquals("pingcap/tiproxy", spec.getTiproxy().getBaseImage());
    assertEquals("pingcap/tidb-binlog", spec.getPump().getBaseImage());
    assertEquals(3, spec.getPd().getMaxFailoverCount());
    assertEquals(3, spec.getTikv().getMaxFailoverCount());
    assertEquals(3, spec.getTidb().getMaxFailoverCount());
    assertEquals(3, spec.getTiflash().getMaxFailoverCount());
    assertEquals(1, spec.getPd().getSpareVolReplaceReplicas());
    assertEquals(1, spec.getTikv().getSpareVolReplaceReplicas());
    assertEquals(3, spec.getTidb().getConfig().get("log.file.max-backups").orElseThrow().asInt());
  }

  @Test
  void keepsWhatTheUserSet() {
    TidbCluster tc = withSpec("""
          version: v8.5.0
          imagePullPolicy: Always
          pvReclaimPolicy: Delete
          enablePVReclaim: true
          tlsCluster: {enabled: true}
          pd: {baseImage: example.com/pd, maxFailoverCount: 0, spareVolReplaceReplicas: 2}
          tidb:
            maxFailoverCount: 1
            config: |
              [log.file]
              max-backups = 10
        """);
    var spec = TidbClusterDefaulter.withDefaults(tc).getSpec();
    assertEquals("Always", spec.getImagePullPolicy());
    assertEquals("Delete", spec.getPvReclaimPolicy());
    assertEquals(true, spec.getEnablePVReclaim());
    assertEquals(true, spec.getTlsCluster().getEnabled());
    assertEquals("example.com/pd", spec.getPd().getBaseImage());
    assertEquals(0, spec.getPd().getMaxFailoverCount());
    assertEquals(2, spec.getPd().getSpareVolReplaceReplicas());
    assertEquals(1, spec.getTidb().getMaxFailoverCount());
    assertEquals(ComponentConfig.ofToml("[log.file]\nmax-backups = 10\n"), spec.getTidb().getConfig());
  }

  @Test
  void touchesOnlyComponentsThatArePresent() {
    TidbCluster tc = TestClusters.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbCluster
        metadata: {name: d}
        spec: {version: v8.5.0, pd: {replicas: 1}}
        """);
    var spec = TidbClusterDefaulter.withDefaults(tc).getSpec();
    assertNull(spec.getTikv());
    assertNull(spec.getTidb());
    assertNull(spec.getTiflash());
    assertNull(spec.getPdms());
  }

  @Test
  void setsBaseImageOnlyWhenAVersionIsGiven() {
    TidbCluster tc = withSpec("""
          pd: {image: pingcap/pd:v5.0.0}
          tikv: {version: v8.5.0}
        """);
    var spec = TidbClusterDefaulter.withDefaults(tc).getSpec();
    assertNull(spec.getPd().getBaseImage());
    assertEquals("pingcap/tikv", spec.getTikv().getBaseImage());
  }

  @Test
  void addsLogBackupsToTomlTextAndKeepsItText() {
    TidbCluster tc = withSpec("""
          version: v8.5.0
          tidb:
            config: |
              [performance]
              tcp-keep-alive = true
        """);
    ComponentConfig config = TidbClusterDefaulter.withDefaults(tc).getSpec().getTidb().getConfig();
    assertTrue(config.isToml());
    assertEquals(3, config.get("log.file.max-backups").orElseThrow().asInt());
    assertTrue(config.get("performance.tcp-keep-alive").orElseThrow().asBoolean());
  }

  @Test
  void leavesUnparsableConfigForValidationToReport() {
    TidbCluster tc = withSpec("""
          version: v8.5.0
          tidb: {config: "[log"}
        """);
    assertEquals(ComponentConfig.ofToml("[log"),
        TidbClusterDefaulter.withDefaults(tc).getSpec().getTidb().getConfig());
  }

  @Test
  void doesNotChangeItsArgument() {
    TidbCluster tc = TestClusters.basic();
    var before = ApiObjects.toTree(tc);
    TidbCluster defaulted = TidbClusterDefaulter.withDefaults(tc);
    assertEquals(before, ApiObjects.toTree(tc));
    assertFalse(before.equals(ApiObjects.toTree(defaulted)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.tidb.operator.api.CompatExamples#arguments")
  void isIdempotent(Example example) {
    TidbCluster once = TidbClusterDefaulter.withDefaults(ApiObjects.fromTree(example.tree(), TidbCluster.class));
    TidbCluster twice = TidbClusterDefaulter.withDefaults(once);
    assertEquals(ApiObjects.toTree(once), ApiObjects.toTree(twice));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.tidb.operator.api.CompatExamples#arguments")
  void defaultingInPlaceGivesWhatTheCopyGives(Example example) {
    TidbCluster copied = TidbClusterDefaulter.withDefaults(ApiObjects.fromTree(example.tree(), TidbCluster.class));
    TidbCluster own = ApiObjects.fromTree(example.tree(), TidbCluster.class);
    TidbCluster inPlace = TidbClusterDefaulter.defaultInPlace(own);
    assertTrue(inPlace == own, "defaultInPlace returns the object it was given");
    assertEquals(ApiObjects.toTree(copied), ApiObjects.toTree(inPlace));
  }

  @Test
  void tellsEachFieldItFillsInByItsPath() {
    TidbCluster tc = withSpec("""
          version: v8.5.0
          imagePullPolicy: Always
          pd: {replicas: 1, maxFailoverCount: 0}
          tikv: {replicas: 1, baseImage: my/tikv, spareVolReplaceReplicas: 2}
          pdms: [{name: tso, replicas: 1, baseImage: my/pd}, {name: scheduling, replicas: 1}]
        """);
    Map<String, Object> filled = new LinkedHashMap<>();
    TidbClusterDefaulter.defaultInPlace(tc, filled::put);
    assertEquals(List.of("/spec/tlsCluster", "/spec/enablePVReclaim", "/spec/pvReclaimPolicy",
        "/spec/pd/baseImage", "/spec/pd/spareVolReplaceReplicas", "/spec/pdms/1/baseImage",
        "/spec/tikv/maxFailoverCount"), List.copyOf(filled.keySet()));
    assertEquals("pingcap/pd", filled.get("/spec/pdms/1/baseImage"));
    assertTrue(filled.get("/spec/tlsCluster") == tc.getSpec().getTlsCluster());

    Map<String, Object> again = new LinkedHashMap<>();
    TidbClusterDefaulter.defaultInPlace(tc, again::put);
    assertEquals(Map.of(), again, "a defaulted object has nothing left to fill in");
  }
}
