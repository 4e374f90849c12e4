package io.tidb.operator.controller.dmcluster;

import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.api.v1alpha1.dm.DmClusterStatus;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.controller.runtime.RuntimeServices;
import io.tidb.operator.controller.runtime.StatusAccess;
import io.tidb.operator.controller.runtime.ValidatingReconciler;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.tidb.operator.controller.tidbcluster.KubeDeletions;
import io.tidb.operator.controller.tidbcluster.KubeVolumeClaims;
import java.net.http.HttpClient;
import java.time.Duration;

/** Builds the {@code DMCluster} controller on the shared runtime. */
public final class DmClusterController {

  /** The controller's name: JOSDK's, and the {@code controller} tag in metrics. */
  public static final String NAME = "dmcluster";

  public static final StatusAccess<DmClusterStatus> STATUS =
      StatusAccess.of(
          DmClusterStatus::new,
          DmClusterStatus::setObservedGeneration,
          DmClusterStatus::getConditions,
          DmClusterStatus::setConditions);

  private DmClusterController() {}

  public static DmClusterReconciler create(
      DmMasterEndpoints endpoints,
      DmFailoverSettings failover,
      RuntimeServices services,
      AdmissionRules<DmCluster> rules,
      KubernetesClient client,
      Duration convergingRequeue) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(endpoints.timeout())
        .followRedirects(HttpClient.Redirect.NEVER).build();
    DmClusterWork work = new DmClusterWork(endpoints, http, failover,
        ns -> new KubeDeletions(client, ns), ns -> new KubeVolumeClaims(client, ns));
    return new DmClusterReconciler(rules, work, services, convergingRequeue);
  }

  /** The runtime's skeleton bound to {@code DMCluster}. */
  public static final class DmClusterReconciler extends ValidatingReconciler<DmCluster, DmClusterStatus> {
    DmClusterReconciler(
        AdmissionRules<DmCluster> rules, DmClusterWork work, RuntimeServices services, Duration convergingRequeue) {
      super(NAME, rules, STATUS, work, services, convergingRequeue);
    }
  }
}
