package io.tidb.operator.api.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import java.util.List;

/**
 * One CRD that fabric8's generator writes from the model, and how the build finishes it: the
 * printer columns in {@code kubectl get} order (the generator would sort them by JSON path), and
 * the header of the copy shipped in the Helm chart. Pure functions.
 *
 * @param kind the kind, e.g. {@code TidbCluster}
 * @param plural the plural resource name, e.g. {@code tidbclusters}
 * @param printerColumns the columns in the order kubectl shows them; empty keeps the generated ones
 */
public record CrdEntry(String kind, String plural, List<CustomResourceColumnDefinition> printerColumns) {

  /** The API group of every kind. */
  public static final String GROUP = "pingcap.com";

  public CrdEntry {
    printerColumns = List.copyOf(printerColumns);
  }

  /** The CRD's name, e.g. {@code tidbclusters.pingcap.com}. */
  public String crdName() {
    return plural + "." + GROUP;
  }

  /** The file name of the generated CRD and of its chart copy. */
  public String fileName() {
    return crdName() + "-v1.yml";
  }

  /** Where the generator writes the CRD, relative to the classes directory. */
  public String generatedResource() {
    return "META-INF/fabric8/" + fileName();
  }

  /** The generated CRD with this entry's printer columns on every version; {@code generated} is kept. */
  public CustomResourceDefinition finish(CustomResourceDefinition generated) {
    CustomResourceDefinition crd = new CustomResourceDefinitionBuilder(generated).build();
    if (!printerColumns.isEmpty()) {
      crd.getSpec().getVersions().forEach(v -> v.setAdditionalPrinterColumns(printerColumns));
    }
    return crd;
  }

  /** The YAML file shipped in the chart: a header comment and the CRD. */
  public String render(CustomResourceDefinition crd) {
    return "# " + kind + " CRD, generated from the Java model in common/ by the build. Do not edit.\n"
        + "# Refresh after changing the model: mvn -pl common process-classes -Dcrd.update=true\n"
        + CrdCatalog.SERIALIZATION.asYaml(crd);
  }

  /** A printer column shown by default. */
  public static CustomResourceColumnDefinition column(
      String name, String type, String jsonPath, String description) {
    return new CustomResourceColumnDefinitionBuilder()
        .withName(name)
        .withType(type)
        .withJsonPath(jsonPath)
        .withDescription(description)
        .build();
  }
}
