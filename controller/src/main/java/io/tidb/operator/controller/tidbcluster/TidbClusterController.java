package io.tidb.operator.controller.tidbcluster;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.controller.config.ControllerSettings;
import io.tidb.operator.controller.runtime.RuntimeServices;
import io.tidb.operator.controller.runtime.StatusAccess;
import io.tidb.operator.controller.runtime.ValidatingReconciler;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterPipeline;
import io.tidb.operator.controller.tidbcluster.pipeline.Deletions;
import io.tidb.operator.controller.tidbcluster.pipeline.VolumeClaims;
import io.tidb.operator.controller.tidbcluster.pipeline.ComponentStep;
import io.tidb.operator.controller.tidbcluster.password.JdbcRootAccount;
import io.tidb.operator.controller.tidbcluster.password.KubePasswordSecrets;
import io.tidb.operator.controller.tidbcluster.password.RootPasswordStep;
import io.tidb.operator.controller.tidbcluster.password.TidbSqlAddress;
import java.util.ArrayList;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** Builds the {@code TidbCluster} controller on the shared runtime. */
public final class TidbClusterController {

  /** The controller's name: JOSDK's, and the {@code controller} tag in metrics. */
  public static final String NAME = "tidbcluster";

  /** How the runtime reads and writes {@link TidbClusterStatus}. */
  public static final StatusAccess<TidbClusterStatus> STATUS =
      StatusAccess.of(
          TidbClusterStatus::new,
          TidbClusterStatus::setObservedGeneration,
          TidbClusterStatus::getConditions,
          TidbClusterStatus::setConditions);

  private TidbClusterController() {}

  /**
   * The controller as the operator process runs it: PD and TiDB reached over HTTP, and after the
   * components the {@code spec.tidb.initializer.createPassword} step, reaching TiDB's MySQL port
   * at {@code tidbSql}.
   */
  public static TidbClusterReconciler create(
      ControllerSettings settings,
      RuntimeServices services,
      AdmissionRules<TidbCluster> rules,
      KubernetesClient client,
      TidbSqlAddress tidbSql) {
    ClusterApiFactory apis =
        new ClusterApiFactory(
            settings.endpoints(),
            (namespace, name) ->
                Optional.ofNullable(client.secrets().inNamespace(namespace).withName(name).get()),
            Clock.systemUTC());
    List<ComponentStep> steps =
        new ArrayList<>(ClusterComponents.upstreamOrder(settings.discoveryImage(), settings.failover()));
    steps.add(
        new RootPasswordStep(
            new KubePasswordSecrets(client),
            new JdbcRootAccount(settings.endpoints().timeout()),
            tidbSql));
    return new TidbClusterReconciler(
        rules,
        new TidbClusterWork(
            new ClusterPipeline(steps),
            apis::forCluster,
            KubeVolumeClaims.source(
                client, LabelledVolumes.start(client, List.copyOf(settings.namespaces()))),
            namespace -> new KubeDeletions(client, namespace),
            new CachedNodeLabels(new KubeNodeLabels(client), Clock.systemUTC())),
        services,
        settings.convergingRequeue());
  }

  /** The controller with a given pipeline and PD/TiDB access (tests use fakes). */
  public static TidbClusterReconciler create(
      AdmissionRules<TidbCluster> rules,
      RuntimeServices services,
      ClusterPipeline pipeline,
      Function<TidbCluster, ClusterApi> apis,
      VolumeClaims.Source claims,
      Duration convergingRequeue) {
    return create(
        rules, services, pipeline, apis, claims, ns -> Deletions.NONE, convergingRequeue);
  }

  /** As above, with pod and StatefulSet deletions in a namespace. */
  public static TidbClusterReconciler create(
      AdmissionRules<TidbCluster> rules,
      RuntimeServices services,
      ClusterPipeline pipeline,
      Function<TidbCluster, ClusterApi> apis,
      VolumeClaims.Source claims,
      Function<String, Deletions> deletions,
      Duration convergingRequeue) {
    return new TidbClusterReconciler(
        rules, new TidbClusterWork(pipeline, apis, claims, deletions), services,
        convergingRequeue);
  }

  /** The runtime's skeleton bound to {@code TidbCluster} (JOSDK reads the type from here). */
  public static final class TidbClusterReconciler
      extends ValidatingReconciler<TidbCluster, TidbClusterStatus> {
    TidbClusterReconciler(
        AdmissionRules<TidbCluster> rules,
        TidbClusterWork work,
        RuntimeServices services,
        Duration convergingRequeue) {
      super(NAME, rules, STATUS, work, services, convergingRequeue);
    }
  }
}
