package io.tidb.operator.api.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import java.util.List;

/** The TidbInitializer CRD's catalog entry: its printer columns. */
public final class TidbInitializerCrd {

  public static final CrdEntry ENTRY =
      new CrdEntry("TidbInitializer", "tidbinitializers", printerColumns());

  private TidbInitializerCrd() {}

  /** {@code kubectl get ti}: the cluster, the phase and why, the age. */
  public static List<CustomResourceColumnDefinition> printerColumns() {
    return List.of(
        CrdEntry.column("Cluster", "string", ".spec.cluster.name", "The TidbCluster it initialises"),
        CrdEntry.column("Phase", "string", ".status.phase", "Pending, Running, Completed or Failed"),
        CrdEntry.column(
            "Message",
            "string",
            ".status.conditions[?(@.type==\"Initialized\")].message",
            "Why the initializer is in its phase"),
        CrdEntry.column("Age", "date", ".metadata.creationTimestamp", "Time since creation"));
  }
}
