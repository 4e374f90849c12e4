package io.tidb.operator.api.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinitionBuilder;
import java.util.List;

/**
 * The TidbMonitor CRD's entry in the {@link CrdCatalog}. Upstream's CRD has no printer columns;
 * ours shows the Ready condition, the Prometheus and Grafana phases and, with {@code -o wide},
 * why the monitor is not ready.
 */
public final class TidbMonitorCrd {

  /** The catalog entry. */
  public static final CrdEntry ENTRY = new CrdEntry("TidbMonitor", "tidbmonitors", printerColumns());

  private TidbMonitorCrd() {}

  public static List<CustomResourceColumnDefinition> printerColumns() {
    return List.of(
        CrdEntry.column("Ready", "string", ".status.conditions[?(@.type==\"Ready\")].status",
            "Whether Prometheus (and Grafana) run for every referenced cluster"),
        CrdEntry.column("Prometheus", "string", ".status.prometheus", "Phase of Prometheus"),
        CrdEntry.column("Grafana", "string", ".status.grafana", "Phase of Grafana"),
        new CustomResourceColumnDefinitionBuilder()
            .withName("Status")
            .withType("string")
            .withJsonPath(".status.conditions[?(@.type==\"Ready\")].message")
            .withDescription("Why the monitor is or is not ready")
            .withPriority(1)
            .build(),
        CrdEntry.column("Age", "date", ".metadata.creationTimestamp",
            "Time since the monitor was created"));
  }
}
