package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import java.util.List;

/**
 * What one controller adds to {@link ValidatingReconciler}: the informers it needs and the work on
 * a valid, defaulted resource. The work records what it observed into {@link
 * ResourceContext#status()}; the skeleton writes that status only when it changed.
 *
 * @param <P> the custom resource
 * @param <S> its status
 */
public interface ReconcileWork<P extends HasMetadata, S> {

  /** The informers of the objects this controller reads, each mapped to its primary resource. */
  List<EventSource<?, P>> eventSources(EventSourceContext<P> context);

  /**
   * Whether {@link #eventSources} start with the controller ({@code false}: its first reconciles
   * find them synced, and {@code /readyz} waits for them) or on the controller's first reconcile
   * or clean-up ({@code true}): a controller whose kind the watched namespaces do not use then
   * lists and watches nothing but its own kind. See {@link ValidatingReconciler}.
   */
  default boolean ownedInformersOnFirstResource() {
    return false;
  }

  /**
   * Brings the resource's objects towards the desired state.
   *
   * @throws Exception a real error: retried with backoff (a {@link StepFailedException} names the
   *     step for logs and metrics)
   */
  WorkOutcome work(ResourceContext<P, S> ctx) throws Exception;
}
