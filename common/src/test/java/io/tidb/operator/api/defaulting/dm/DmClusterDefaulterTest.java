package io.tidb.operator.api.defaulting.dm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import org.junit.jupiter.api.Test;

class DmClusterDefaulterTest {

  private static DmCluster dc(String specYaml) {
    return ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: DMCluster
        metadata: {name: dm, namespace: ns}
        spec:
        """ + specYaml.indent(2), DmCluster.class);
  }

  @Test
  void fillsUpstreamsDefaults() {
    DmCluster out = DmClusterDefaulter.withDefaults(dc("""
        version: v8.5.7
        master: {replicas: 3, storageSize: 10Gi}
        worker: {replicas: 2}
        """));
    assertEquals("IfNotPresent", out.getSpec().getImagePullPolicy());
    assertEquals(false, out.getSpec().getTlsCluster().getEnabled());
    assertEquals(false, out.getSpec().getEnablePVReclaim());
    assertEquals("Retain", out.getSpec().getPvReclaimPolicy());
    assertEquals("pingcap/dm", out.getSpec().getMaster().getBaseImage());
    assertEquals(3, out.getSpec().getMaster().getMaxFailoverCount());
    assertEquals("pingcap/dm", out.getSpec().getWorker().getBaseImage());
    assertEquals(3, out.getSpec().getWorker().getMaxFailoverCount());
  }

  @Test
  void keepsWhatTheUserSetAndDoesNotChangeItsArgument() {
    DmCluster in = dc("""
        version: v8.5.7
        imagePullPolicy: Always
        pvReclaimPolicy: Delete
        master: {replicas: 1, baseImage: my/dm, maxFailoverCount: 0, storageSize: 1Gi}
        """);
    DmCluster out = DmClusterDefaulter.withDefaults(in);
    assertEquals("Always", out.getSpec().getImagePullPolicy());
    assertEquals("Delete", out.getSpec().getPvReclaimPolicy());
    assertEquals("my/dm", out.getSpec().getMaster().getBaseImage());
    assertEquals(0, out.getSpec().getMaster().getMaxFailoverCount());
    assertNull(out.getSpec().getWorker());
    assertNull(in.getSpec().getTlsCluster());
  }

  @Test
  void noBaseImageWithoutAnyVersion() {
    DmCluster out = DmClusterDefaulter.withDefaults(dc("master: {replicas: 1, storageSize: 1Gi}\n"));
    assertNull(out.getSpec().getMaster().getBaseImage());
    DmCluster own = DmClusterDefaulter.withDefaults(dc("master: {replicas: 1, version: v8.5.7}\n"));
    assertEquals("pingcap/dm", own.getSpec().getMaster().getBaseImage());
  }
}
