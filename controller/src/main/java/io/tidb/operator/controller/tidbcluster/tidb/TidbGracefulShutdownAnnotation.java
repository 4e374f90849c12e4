package io.tidb.operator.controller.tidbcluster.tidb;

import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.member.PodActions;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import java.util.Optional;

/**
 * Pod annotation {@code tidb.pingcap.com/tidb-graceful-shutdown} on a TiDB pod, as upstream's pod
 * controller: with {@code delete-pod} the pod is deleted (TiDB shuts down gracefully within the
 * pod's termination grace period and the StatefulSet recreates it without the annotation); {@code
 * none} does nothing. Nothing is deleted while PD, TiKV or TiDB is being scaled or upgraded; one
 * pod per pass, and not while another TiDB pod is being deleted or is not Ready (so the service
 * never loses two servers at once, which upstream does not check).
 */
public final class TidbGracefulShutdownAnnotation {

  public static final String KEY = "tidb.pingcap.com/tidb-graceful-shutdown";

  public static final String NONE = "none";

  public static final String DELETE_POD = "delete-pod";

  private TidbGracefulShutdownAnnotation() {}

  /** @param busy what another component (PD, TiKV) is doing right now, if it is scaling or upgrading */
  public record Facts(Rollout rollout, Optional<String> busy) {}

  public static MemberDecision decide(Facts f) {
    Optional<ObservedPod> asked = f.rollout().pods().values().stream()
        .filter(p -> p.annotation(KEY).map(String::trim).filter(DELETE_POD::equals).isPresent())
        .filter(p -> !p.terminating())
        .findFirst();
    if (asked.isEmpty()) {
      return MemberDecision.IDLE;
    }
    ObservedPod p = asked.get();
    String ask = KEY + "=" + DELETE_POD;
    if (f.busy().isPresent()) {
      return MemberDecision.waitFor(
          "pod " + p.name() + " asks " + ask + "; waits for " + f.busy().get());
    }
    for (ObservedPod other : f.rollout().pods().values()) {
      if (!other.name().equals(p.name()) && !other.ready()) {
        return MemberDecision.waitFor(
            "pod " + p.name() + " asks " + ask + "; waiting for pod " + other.name() + " to be"
                + " Ready first");
      }
    }
    return new MemberDecision.Act(
        new PodActions.DeletePod(p.name(), p.uid()),
        "deleting pod " + p.name() + " (" + ask + "): TiDB shuts down gracefully and the pod is"
            + " recreated");
  }
}
