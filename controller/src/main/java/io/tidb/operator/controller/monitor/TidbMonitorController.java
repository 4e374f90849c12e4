package io.tidb.operator.controller.monitor;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitorStatus;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.controller.config.ControllerSettings;
import io.tidb.operator.controller.runtime.RuntimeServices;
import io.tidb.operator.controller.runtime.StatusAccess;
import io.tidb.operator.controller.runtime.ValidatingReconciler;
import io.tidb.operator.controller.tidbcluster.ClusterApiFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/** Builds the {@code TidbMonitor} controller on the shared runtime. */
public final class TidbMonitorController {

  /** The controller's name: JOSDK's, and the {@code controller} tag in metrics. */
  public static final String NAME = "tidbmonitor";

  public static final StatusAccess<TidbMonitorStatus> STATUS =
      StatusAccess.of(
          TidbMonitorStatus::new,
          TidbMonitorStatus::setObservedGeneration,
          TidbMonitorStatus::getConditions,
          TidbMonitorStatus::setConditions);

  private TidbMonitorController() {}

  public static TidbMonitorReconciler create(
      ControllerSettings settings,
      RuntimeServices services,
      AdmissionRules<TidbMonitor> rules,
      KubernetesClient client) {
    ObjectsByName byName = new KubeObjectsByName(client);
    ClusterScopedRbac rbac = new ClusterScopedRbac(client, byName);
    return new TidbMonitorReconciler(
        rules,
        new TidbMonitorWork(lookup -> new KubeMonitorReads(client, lookup), byName, rbac,
            new KubeMonitorVolumes(client),
            new DashboardLinks(new PdDashboardTopology(new ClusterApiFactory(settings.endpoints(),
                (namespace, name) ->
                    Optional.ofNullable(client.secrets().inNamespace(namespace).withName(name).get()),
                Clock.systemUTC())))),
        rbac,
        services,
        settings.convergingRequeue());
  }

  /**
   * The runtime's skeleton bound to {@code TidbMonitor}. As upstream, a finalizer removes the
   * ClusterRole and ClusterRoleBinding of a {@code clusterScoped} monitor, which no owner
   * reference can garbage-collect; everything else goes with the monitor's owner references.
   */
  public static final class TidbMonitorReconciler
      extends ValidatingReconciler<TidbMonitor, TidbMonitorStatus> implements Cleaner<TidbMonitor> {

    private final ClusterScopedRbac rbac;

    TidbMonitorReconciler(
        AdmissionRules<TidbMonitor> rules,
        TidbMonitorWork work,
        ClusterScopedRbac rbac,
        RuntimeServices services,
        Duration convergingRequeue) {
      super(NAME, rules, STATUS, work, services, convergingRequeue);
      this.rbac = rbac;
    }

    @Override
    public DeleteControl cleanup(TidbMonitor resource, Context<TidbMonitor> context) {
      return gatedCleanup(resource, context, () -> {
        rbac.delete(resource);
        return DeleteControl.defaultDelete();
      });
    }
  }
}
