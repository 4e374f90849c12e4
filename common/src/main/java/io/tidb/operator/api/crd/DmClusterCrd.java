package io.tidb.operator.api.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinitionBuilder;
import java.util.List;

/**
 * The DMCluster CRD's entry in the {@link CrdCatalog}: upstream's printer columns in upstream's
 * order (Ready, the dm-master image, storage, ready and desired replicas, the same for dm-worker,
 * with {@code -o wide} the Ready message, and the age).
 */
public final class DmClusterCrd {

  /** The catalog entry. */
  public static final CrdEntry ENTRY = new CrdEntry("DMCluster", "dmclusters", printerColumns());

  private DmClusterCrd() {}

  public static List<CustomResourceColumnDefinition> printerColumns() {
    return List.of(
        CrdEntry.column("Ready", "string", ".status.conditions[?(@.type==\"Ready\")].status",
            "Whether every dm-master and dm-worker member is up and current"),
        CrdEntry.column("Master", "string", ".status.master.image", "Image dm-master runs"),
        CrdEntry.column("Storage", "string", ".spec.master.storageSize", "Data volume size of dm-master"),
        CrdEntry.column("Ready", "integer", ".status.master.statefulSet.readyReplicas",
            "Ready dm-master pods"),
        CrdEntry.column("Desire", "integer", ".spec.master.replicas", "Desired dm-master members"),
        CrdEntry.column("Worker", "string", ".status.worker.image", "Image dm-worker runs"),
        CrdEntry.column("Storage", "string", ".spec.worker.storageSize", "Data volume size of dm-worker"),
        CrdEntry.column("Ready", "string", ".status.worker.statefulSet.readyReplicas",
            "Ready dm-worker pods"),
        CrdEntry.column("Desire", "integer", ".spec.worker.replicas", "Desired dm-worker members"),
        new CustomResourceColumnDefinitionBuilder()
            .withName("Status")
            .withType("string")
            .withJsonPath(".status.conditions[?(@.type==\"Ready\")].message")
            .withDescription("Why the cluster is or is not ready")
            .withPriority(1)
            .build(),
        CrdEntry.column("Age", "date", ".metadata.creationTimestamp",
            "Time since the cluster was created"));
  }
}
