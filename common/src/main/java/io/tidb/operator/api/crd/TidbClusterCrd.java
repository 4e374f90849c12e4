package io.tidb.operator.api.crd;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Finishes the TidbCluster CRD that fabric8's generator writes from the model: adds the printer
 * columns in the order {@code kubectl get tc} shows them (the generator would sort them by JSON
 * path) and renders the file shipped in the Helm chart. Pure functions.
 */
public final class TidbClusterCrd {

  /** Where the generator writes the CRD, relative to the classes directory. */
  public static final String GENERATED_RESOURCE = "META-INF/fabric8/tidbclusters.pingcap.com-v1.yml";

  /** Client-side {@code kubectl apply} stores the object in an annotation of at most this size. */
  public static final int MAX_APPLY_BYTES = 262_144;

  static final String HEADER =
      "# TidbCluster CRD, generated from the Java model in common/ by the build. Do not edit.\n"
          + "# Refresh after changing the model: mvn -pl common process-classes -Dcrd.update=true\n";

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private TidbClusterCrd() {}

  /** Upstream's {@code kubectl get tc} columns, in upstream's order, plus a Status message. */
  public static List<CustomResourceColumnDefinition> printerColumns() {
    return List.of(
        column("Ready", "string", ".status.conditions[?(@.type==\"Ready\")].status",
            "Whether every component of the cluster is up"),
        column("PD", "string", ".status.pd.image", "The image PD runs"),
        column("Storage", "string", ".spec.pd.requests.storage", "The storage size of each PD member"),
        column("Ready", "integer", ".status.pd.statefulSet.readyReplicas", "Ready PD members"),
        column("Desire", "integer", ".spec.pd.replicas", "Desired PD members"),
        column("TiKV", "string", ".status.tikv.image", "The image TiKV runs"),
        column("Storage", "string", ".spec.tikv.requests.storage",
            "The storage size of each TiKV store"),
        column("Ready", "integer", ".status.tikv.statefulSet.readyReplicas", "Ready TiKV stores"),
        column("Desire", "integer", ".spec.tikv.replicas", "Desired TiKV stores"),
        column("TiDB", "string", ".status.tidb.image", "The image TiDB runs"),
        column("Ready", "integer", ".status.tidb.statefulSet.readyReplicas", "Ready TiDB members"),
        column("Desire", "integer", ".spec.tidb.replicas", "Desired TiDB members"),
        new CustomResourceColumnDefinitionBuilder()
            .withName("Status")
            .withType("string")
            .withJsonPath(".status.conditions[?(@.type==\"Ready\")].message")
            .withDescription("Why the cluster is or is not ready")
            .withPriority(1)
            .build(),
        column("Age", "date", ".metadata.creationTimestamp", "Time since the cluster was created"));
  }

  private static CustomResourceColumnDefinition column(
      String name, String type, String jsonPath, String description) {
    return new CustomResourceColumnDefinitionBuilder()
        .withName(name)
        .withType(type)
        .withJsonPath(jsonPath)
        .withDescription(description)
        .build();
  }

  /** Parses a CRD from YAML or JSON. */
  public static CustomResourceDefinition parse(String yaml) {
    return SERIALIZATION.unmarshal(yaml, CustomResourceDefinition.class);
  }

  /** The generated CRD with the printer columns set on every version; {@code generated} is kept. */
  public static CustomResourceDefinition finish(CustomResourceDefinition generated) {
    CustomResourceDefinition crd = new CustomResourceDefinitionBuilder(generated).build();
    crd.getSpec().getVersions().forEach(v -> v.setAdditionalPrinterColumns(printerColumns()));
    return crd;
  }

  /** The YAML file shipped in the chart: a header comment and the CRD. */
  public static String render(CustomResourceDefinition crd) {
    return HEADER + SERIALIZATION.asYaml(crd);
  }

  /** Size in bytes of the CRD as compact JSON, the form {@code kubectl apply} stores. */
  public static int compactJsonBytes(CustomResourceDefinition crd) {
    JsonNode tree = SERIALIZATION.convertValue(crd, JsonNode.class);
    return tree.toString().getBytes(StandardCharsets.UTF_8).length;
  }
}
