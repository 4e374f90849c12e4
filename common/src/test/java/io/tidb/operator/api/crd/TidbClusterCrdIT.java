package io.tidb.operator.api.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.CompatExamples;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.StorageVolume;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.api.v1alpha1.cluster.TiflashSpec;
import io.tidb.operator.testsupport.ProjectCrds;
import io.tidb.operator.testsupport.TestNamespaces;
import io.tidb.operator.testsupport.WithKubeApiServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The chart's CRD on a real kube-apiserver: it installs, and its schema rules and defaults hold. */
@WithKubeApiServer
class TidbClusterCrdIT {

  private final KubernetesClient client;
  private String namespace;

  TidbClusterCrdIT(KubernetesClient client) {
    this.client = client;
  }

  @BeforeEach
  void setUp() {
    ProjectCrds.apply(client);
    namespace = TestNamespaces.createUnique(client, "crd");
  }

  private MixedOperation<TidbCluster, KubernetesResourceList<TidbCluster>, Resource<TidbCluster>> tcs() {
    return client.resources(TidbCluster.class);
  }

  /** The upstream basic example, in this test's namespace. */
  private TidbCluster basic(String name) {
    JsonNode tree = CompatExamples.all().stream()
        .filter(e -> e.file().equals("basic__tidb-cluster.yaml"))
        .findFirst().orElseThrow().tree().deepCopy();
    ((ObjectNode) tree.get("metadata")).put("name", name).put("namespace", namespace);
    return ApiObjects.fromTree(tree, TidbCluster.class);
  }

  private String rejection(TidbCluster tc) {
    KubernetesClientException e = assertThrows(KubernetesClientException.class, () -> tcs().resource(tc).create());
    assertEquals(422, e.getCode(), e::getMessage);
    return e.getMessage();
  }

  @Test
  void everyUpstreamExampleIsAcceptedAndKeptAsWritten() {
    int i = 0;
    for (CompatExamples.Example example : CompatExamples.all()) {
      ObjectNode tree = example.tree().deepCopy();
      ((ObjectNode) tree.get("metadata")).put("name", "example-" + i++).put("namespace", namespace);
      TidbCluster created = tcs().resource(ApiObjects.fromTree(tree, TidbCluster.class)).create();
      JsonNode spec = ApiObjects.toTree(created).get("spec");
      // Everything the user wrote comes back unchanged (the server may add defaults).
      assertSubset(tree.get("spec"), spec, example + " spec");
    }
  }

  private static void assertSubset(JsonNode expected, JsonNode actual, String where) {
    if (expected.isObject()) {
      assertTrue(actual != null && actual.isObject(), where + ": expected an object, got " + actual);
      expected.fieldNames().forEachRemaining(f -> assertSubset(expected.get(f), actual.get(f), where + "." + f));
    } else if (expected.isArray()) {
      assertTrue(actual != null && actual.isArray() && actual.size() == expected.size(),
          where + ": expected " + expected + ", got " + actual);
      for (int i = 0; i < expected.size(); i++) {
        assertSubset(expected.get(i), actual.get(i), where + "[" + i + "]");
      }
    } else {
      assertEquals(expected, actual, where);
    }
  }

  @Test
  void serverFillsUpstreamSchemaDefaults() {
    TidbCluster created = tcs().resource(basic("defaults")).create();
    assertEquals("pingcap/pd", created.getSpec().getPd().getBaseImage());
    assertEquals("IfNotPresent", created.getSpec().getImagePullPolicy());
    assertEquals("Retain", created.getSpec().getPvReclaimPolicy());
    assertEquals(30, created.getSpec().getPd().getStartTimeout());
  }

  @Test
  void statusIsASubresource() {
    TidbCluster created = tcs().resource(basic("status")).create();
    TidbClusterStatus status = new TidbClusterStatus();
    status.setClusterID("42");
    status.setConditions(List.of(new ConditionBuilder().withType("Ready").withStatus("False")
        .withReason("Creating").withMessage("PD not ready").withLastTransitionTime("2024-01-01T00:00:00Z")
        .build()));
    created.setStatus(status);
    created.getSpec().setPaused(true); // ignored by the status endpoint
    TidbCluster updated = tcs().resource(created).updateStatus();
    assertEquals("42", updated.getStatus().getClusterID());
    assertEquals(null, updated.getSpec().getPaused());
    TidbCluster fetched = tcs().inNamespace(namespace).withName("status").get();
    assertEquals("PD not ready", fetched.getStatus().getConditions().get(0).getMessage());

    // A plain update does not change status.
    fetched.setStatus(new TidbClusterStatus());
    TidbCluster afterSpecUpdate = tcs().resource(fetched).update();
    assertEquals("42", afterSpecUpdate.getStatus().getClusterID());
  }

  @Test
  void pdWithoutStorageIsRejected() {
    TidbCluster tc = basic("no-storage");
    tc.getSpec().getPd().setRequests(Map.of("cpu", new Quantity("1")));
    assertTrue(rejection(tc).contains("spec.pd.requests: Required value: the data volume size is required"));
  }

  @Test
  void malformedStorageVolumeSizeIsRejected() {
    TidbCluster tc = basic("bad-size");
    StorageVolume volume = new StorageVolume();
    volume.setName("log");
    volume.setStorageSize("ten gigabytes");
    tc.getSpec().getTikv().setStorageVolumes(List.of(volume));
    assertTrue(rejection(tc).contains("spec.tikv.storageVolumes[0].storageSize"));
  }

  @Test
  void tikvDataSubDirMustStayInsideTheVolume() {
    TidbCluster tc = basic("bad-subdir");
    tc.getSpec().getTikv().setDataSubDir("data/../../etc");
    assertTrue(rejection(tc).contains("must be a relative path without '..'"));
    tc.getSpec().getTikv().setDataSubDir("/data");
    assertTrue(rejection(tc).contains("must be a relative path without '..'"));
    tc.getSpec().getTikv().setDataSubDir("data/..x");
    tcs().resource(tc).create();
  }

  @Test
  void tiflashNeedsAStorageClaim() {
    TidbCluster tc = basic("no-claims");
    TiflashSpec tiflash = new TiflashSpec();
    tiflash.setReplicas(1);
    tc.getSpec().setTiflash(tiflash);
    assertTrue(rejection(tc).contains("TiFlash needs at least one storage claim"));
  }

  @Test
  void negativeReplicasAreRejected() {
    TidbCluster tc = basic("negative");
    tc.getSpec().getTidb().setReplicas(-1);
    assertTrue(rejection(tc).contains("spec.tidb.replicas"));
  }

  @Test
  void bootstrapSqlConfigMapCannotChange() {
    TidbCluster tc = basic("bootstrap");
    tc.getSpec().getTidb().setBootstrapSQLConfigMapName("first");
    TidbCluster created = tcs().resource(tc).create();
    created.getSpec().getTidb().setBootstrapSQLConfigMapName("second");
    KubernetesClientException e =
        assertThrows(KubernetesClientException.class, () -> tcs().resource(created).update());
    assertTrue(e.getMessage().contains("bootstrapSQLConfigMapName is immutable"), e.getMessage());
  }

  @Test
  void configIsKeptAsTomlTextOrAsAMap() {
    TidbCluster tc = basic("config");
    tc.getSpec().getPd().setConfig(ComponentConfig.ofToml("[replication]\nmax-replicas = 3\n"));
    tc.getSpec().getTikv().setConfig(ComponentConfig.of(
        ApiObjects.toTree(Map.of("storage", Map.of("reserve-space", "0MB")))));
    TidbCluster created = tcs().resource(tc).create();
    assertEquals("[replication]\nmax-replicas = 3\n", created.getSpec().getPd().getConfig().raw().asText());
    assertEquals("0MB", created.getSpec().getTikv().getConfig().get("storage.reserve-space").orElseThrow().asText());
  }
}
