package io.tidb.operator.api.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The CRD as shipped in the chart. */
class TidbClusterCrdTest {

  private static CustomResourceDefinition chartCrd() throws IOException {
    return CrdCatalog.parse(Files.readString(
        SchemaCoverageTest.repoFile("charts/tidb-operator/crds/tidbclusters.pingcap.com-v1.yml")));
  }

  @Test
  void fitsClientSideKubectlApply() throws IOException {
    int size = CrdCatalog.compactJsonBytes(chartCrd());
    System.out.println("TidbCluster CRD as compact JSON: " + size + " bytes");
    assertTrue(size < CrdCatalog.MAX_APPLY_BYTES,
        "CRD is " + size + " bytes as compact JSON; kubectl apply needs less than " + CrdCatalog.MAX_APPLY_BYTES);
  }

  @Test
  void namesAndScopeMatchUpstream() throws IOException {
    CustomResourceDefinition crd = chartCrd();
    assertEquals("tidbclusters.pingcap.com", crd.getMetadata().getName());
    assertEquals("pingcap.com", crd.getSpec().getGroup());
    assertEquals("Namespaced", crd.getSpec().getScope());
    assertEquals("TidbCluster", crd.getSpec().getNames().getKind());
    assertEquals("tidbclusters", crd.getSpec().getNames().getPlural());
    assertEquals(List.of("tc"), crd.getSpec().getNames().getShortNames());
    assertEquals(List.of("pingcap"), crd.getSpec().getNames().getCategories());
    assertEquals(List.of("v1alpha1"), crd.getSpec().getVersions().stream().map(CustomResourceDefinitionVersion::getName).toList());
  }

  @Test
  void statusIsASubresource() throws IOException {
    CustomResourceDefinitionVersion v = chartCrd().getSpec().getVersions().get(0);
    assertNotNull(v.getSubresources());
    assertNotNull(v.getSubresources().getStatus());
  }

  @Test
  void printerColumnsFollowKubectlGetTcOrder() throws IOException {
    List<CustomResourceColumnDefinition> columns = chartCrd().getSpec().getVersions().get(0).getAdditionalPrinterColumns();
    assertEquals(List.of("Ready", "PD", "Storage", "Ready", "Desire", "TiKV", "Storage", "Ready", "Desire",
            "TiDB", "Ready", "Desire", "Status", "Age"),
        columns.stream().map(CustomResourceColumnDefinition::getName).toList());
    assertEquals(".status.conditions[?(@.type==\"Ready\")].status", columns.get(0).getJsonPath());
    assertEquals(1, columns.get(12).getPriority());
  }

  @Test
  void finishingIsIdempotent() throws IOException {
    CustomResourceDefinition once = TidbClusterCrd.ENTRY.finish(chartCrd());
    assertEquals(TidbClusterCrd.ENTRY.render(once), TidbClusterCrd.ENTRY.render(TidbClusterCrd.ENTRY.finish(once)));
    String chart = Files.readString(
        SchemaCoverageTest.repoFile("charts/tidb-operator/crds/tidbclusters.pingcap.com-v1.yml"), StandardCharsets.UTF_8);
    assertEquals(chart, TidbClusterCrd.ENTRY.render(once));
  }

  @Test
  void descriptionsHelpKubectlExplain() throws IOException {
    var pd = chartCrd().getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema()
        .getProperties().get("spec").getProperties().get("pd");
    assertEquals("The PD component.", pd.getDescription());
    assertEquals("Desired number of members.", pd.getProperties().get("replicas").getDescription());
  }

  @Test
  void largeEmbeddedTypesKeepUnknownFields() throws IOException {
    var pd = chartCrd().getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema()
        .getProperties().get("spec").getProperties().get("pd");
    assertEquals(true, pd.getProperties().get("affinity").getXKubernetesPreserveUnknownFields());
    assertEquals(true, pd.getProperties().get("additionalContainers").getItems().getSchema().getXKubernetesPreserveUnknownFields());
    assertEquals(true, pd.getProperties().get("config").getXKubernetesPreserveUnknownFields());
    assertEquals(null, pd.getProperties().get("config").getType(), "config may be a map or a TOML string");
    // small embedded types keep their full schema
    assertEquals("array", pd.getProperties().get("tolerations").getType());
    assertNotNull(pd.getProperties().get("tolerations").getItems().getSchema().getProperties().get("effect"));
  }
}
