package io.tidb.operator.controller.initializer;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializer;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializerStatus;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.controller.runtime.RuntimeServices;
import io.tidb.operator.controller.runtime.StatusAccess;
import io.tidb.operator.controller.runtime.ValidatingReconciler;
import java.time.Duration;

/** Builds the {@code TidbInitializer} controller on the shared runtime. */
public final class TidbInitializerController {

  /** The controller's name: JOSDK's, and the {@code controller} tag in metrics. */
  public static final String NAME = "tidbinitializer";

  /** How the runtime reads and writes {@link TidbInitializerStatus}. */
  public static final StatusAccess<TidbInitializerStatus> STATUS =
      StatusAccess.of(
          TidbInitializerStatus::new,
          TidbInitializerStatus::setObservedGeneration,
          TidbInitializerStatus::getConditions,
          TidbInitializerStatus::setConditions);

  private TidbInitializerController() {}

  /** The controller as the operator process runs it, reading named objects from the API server. */
  public static TidbInitializerReconciler create(
      InitializerSettings settings,
      RuntimeServices services,
      AdmissionRules<TidbInitializer> rules,
      KubernetesClient client,
      Duration convergingRequeue) {
    return new TidbInitializerReconciler(
        rules, new TidbInitializerWork(settings, new KubeInitializerLookups(client)), services, convergingRequeue);
  }

  /** The runtime's skeleton bound to {@code TidbInitializer} (JOSDK reads the type from here). */
  public static final class TidbInitializerReconciler
      extends ValidatingReconciler<TidbInitializer, TidbInitializerStatus> {
    TidbInitializerReconciler(
        AdmissionRules<TidbInitializer> rules,
        TidbInitializerWork work,
        RuntimeServices services,
        Duration convergingRequeue) {
      super(NAME, rules, STATUS, work, services, convergingRequeue);
    }
  }
}
