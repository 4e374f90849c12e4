package io.tidb.operator.api.validation.cluster;

import io.tidb.operator.api.v1alpha1.cluster.TidbClusterSpec;
import io.tidb.operator.api.validation.Violation;
import java.util.ArrayList;
import java.util.List;

/**
 * The components a user may write in a {@code TidbCluster} that this operator does not bring up:
 * each one present is a {@code Forbidden} violation naming the field and saying why, so a spec is
 * never accepted with a part that would be silently ignored. The webhook refuses them on create
 * and update; the controller, which keeps healing what it does manage in a stored cluster, holds
 * {@code Ready=False} with the same messages.
 *
 * <p>Upstream manages both. TiFlash, TiCDC, TiProxy and Pump, refused here before, are managed
 * now, each by its own package in the controller.
 */
public final class UnmanagedComponentRules {

  /** The {@code Ready} reason the controller shows while such a component is in the spec. */
  public static final String READY_REASON = "ComponentNotManaged";

  private UnmanagedComponentRules() {}

  /** Every unmanaged component present in {@code spec}, one violation each, in spec order. */
  public static List<Violation> violations(TidbClusterSpec spec) {
    List<Violation> out = new ArrayList<>();
    if (spec == null) {
      return out;
    }
    if (spec.getPdms() != null && !spec.getPdms().isEmpty()) {
      out.add(Violation.forbidden("spec.pdms",
          "PD microservices (tso, scheduling) are not managed by this operator; remove spec.pdms"
              + " and run PD in its classic mode"));
    }
    if (spec.getTici() != null && !spec.getTici().isNull() && !spec.getTici().isMissingNode()) {
      out.add(Violation.forbidden("spec.tici",
          "TiCI is not managed by this operator (upstream marks it experimental and it needs an"
              + " external object store and TiCDC); remove spec.tici"));
    }
    return out;
  }
}
