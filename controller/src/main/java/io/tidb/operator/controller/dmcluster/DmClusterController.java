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
import io.tidb.operator.pd.ComponentHttp;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

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

  /** @param discoveryImage the operator's own image, run as each cluster's {@code <dc>-dm-discovery} */
  public static DmClusterReconciler create(
      DmMasterEndpoints endpoints,
      DmFailoverSettings failover,
      String discoveryImage,
      RuntimeServices services,
      AdmissionRules<DmCluster> rules,
      KubernetesClient client,
      Duration convergingRequeue) {
    ComponentHttp http = ComponentHttp.plain(endpoints.timeout());
    DmMasterTransport transport = new DmMasterTransport(http,
        (ns, secret) -> Optional.ofNullable(client.secrets().inNamespace(ns).withName(secret).get()),
        endpoints.timeout(), Clock.systemUTC());
    DmClusterWork work = new DmClusterWork(endpoints, transport, failover, discoveryImage,
        ns -> new KubeDeletions(client, ns), KubeVolumeClaims.source(client));
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
