package io.tidb.operator.api.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinitionBuilder;
import java.util.List;

/**
 * The TidbCluster CRD's entry in the {@link CrdCatalog}: upstream's {@code kubectl get tc} columns
 * in upstream's order. Pure functions.
 */
public final class TidbClusterCrd {

  /** The catalog entry. */
  public static final CrdEntry ENTRY = new CrdEntry("TidbCluster", "tidbclusters", printerColumns());

  private TidbClusterCrd() {}

  /** Upstream's {@code kubectl get tc} columns, in upstream's order, plus a Status message. */
  public static List<CustomResourceColumnDefinition> printerColumns() {
    return List.of(
        CrdEntry.column("Ready", "string", ".status.conditions[?(@.type==\"Ready\")].status",
            "Whether every component of the cluster is up"),
        CrdEntry.column("PD", "string", ".status.pd.image", "The image PD runs"),
        CrdEntry.column("Storage", "string", ".spec.pd.requests.storage", "The storage size of each PD member"),
        CrdEntry.column("Ready", "integer", ".status.pd.statefulSet.readyReplicas", "Ready PD members"),
        CrdEntry.column("Desire", "integer", ".spec.pd.replicas", "Desired PD members"),
        CrdEntry.column("TiKV", "string", ".status.tikv.image", "The image TiKV runs"),
        CrdEntry.column("Storage", "string", ".spec.tikv.requests.storage",
            "The storage size of each TiKV store"),
        CrdEntry.column("Ready", "integer", ".status.tikv.statefulSet.readyReplicas", "Ready TiKV stores"),
        CrdEntry.column("Desire", "integer", ".spec.tikv.replicas", "Desired TiKV stores"),
        CrdEntry.column("TiDB", "string", ".status.tidb.image", "The image TiDB runs"),
        CrdEntry.column("Ready", "integer", ".status.tidb.statefulSet.readyReplicas", "Ready TiDB members"),
        CrdEntry.column("Desire", "integer", ".spec.tidb.replicas", "Desired TiDB members"),
        new CustomResourceColumnDefinitionBuilder()
            .withName("Status")
            .withType("string")
            .withJsonPath(".status.conditions[?(@.type==\"Ready\")].message")
            .withDescription("Why the cluster is or is not ready")
            .withPriority(1)
            .build(),
        CrdEntry.column("Age", "date", ".metadata.creationTimestamp", "Time since the cluster was created"));
  }

}
