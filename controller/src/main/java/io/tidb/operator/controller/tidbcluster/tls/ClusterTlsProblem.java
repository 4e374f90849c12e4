package io.tidb.operator.controller.tidbcluster.tls;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.runtime.ResourceContext;
import io.tidb.operator.controller.runtime.StatusAccess;
import io.tidb.operator.controller.runtime.WorkOutcome;
import io.tidb.operator.controller.tidbcluster.pipeline.ReadyCondition;
import java.util.Optional;

/**
 * What the operator does while a TLS cluster's client certificate Secret is missing or unusable:
 * nothing to the cluster (no object applied, no PD call, so no scale-in, upgrade or failover step
 * can be taken on a wrong view), {@code Ready=False} with reason {@value #REASON} and every
 * problem in the message, and a Warning Event of the same reason when the message changes. The
 * reconcile converges again a little later, so a fixed Secret is picked up without any edit.
 */
public final class ClusterTlsProblem {

  public static final String REASON = "ClusterTLSUnavailable";
  public static final String STEP = "clusterTLS";

  private static final StatusAccess<TidbClusterStatus> TIDBCLUSTER = StatusAccess.of(
      TidbClusterStatus::new, TidbClusterStatus::setObservedGeneration,
      TidbClusterStatus::getConditions, TidbClusterStatus::setConditions);

  private ClusterTlsProblem() {}

  public static WorkOutcome hold(
      ResourceContext<TidbCluster, TidbClusterStatus> resource,
      ClusterTlsUnavailableException problem) {
    return hold(resource, TIDBCLUSTER, problem);
  }

  /** As above for any kind whose status has conditions (a DMCluster's too). */
  public static <P extends HasMetadata, S> WorkOutcome hold(
      ResourceContext<P, S> resource, StatusAccess<S> access, ClusterTlsUnavailableException problem) {
    String message = "the operator cannot reach the cluster over TLS and changes nothing until "
        + "this is fixed: " + problem.getMessage();
    S status = resource.status();
    Optional<Condition> before = Conditions.find(access.conditions(status), ReadyCondition.TYPE);
    boolean changed = before.isEmpty()
        || !REASON.equals(before.get().getReason())
        || !message.equals(before.get().getMessage());
    access.setConditions(status, Conditions.set(access.conditions(status), ReadyCondition.TYPE,
        Conditions.FALSE, REASON, message, resource.generation(), resource.now()));
    if (changed) {
      resource.events().warning(resource.resource(), REASON, message);
    }
    return WorkOutcome.converging(STEP, problem.getMessage());
  }
}
