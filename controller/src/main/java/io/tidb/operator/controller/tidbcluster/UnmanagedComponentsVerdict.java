package io.tidb.operator.controller.tidbcluster;

import io.tidb.operator.api.v1alpha1.cluster.TidbClusterSpec;
import io.tidb.operator.api.validation.Violation;
import io.tidb.operator.api.validation.cluster.UnmanagedComponentRules;
import io.tidb.operator.controller.tidbcluster.pipeline.ReadyCondition;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The controller's side of {@link UnmanagedComponentRules}: a stored cluster that names a
 * component this operator does not bring up (admitted without the webhook, or before the rule
 * existed) is never {@code Ready}. The components it does manage keep being reconciled and
 * healed; the verdict says which fields to remove.
 */
final class UnmanagedComponentsVerdict {

  private UnmanagedComponentsVerdict() {}

  /** {@code Ready=False} with reason {@value UnmanagedComponentRules#READY_REASON}, or empty. */
  static Optional<ReadyCondition.Verdict> of(TidbClusterSpec spec) {
    List<Violation> violations = UnmanagedComponentRules.violations(spec);
    if (violations.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        ReadyCondition.Verdict.notReady(
            UnmanagedComponentRules.READY_REASON,
            violations.stream().map(Violation::message).collect(Collectors.joining("; "))));
  }
}
