package io.tidb.operator.controller.tidbcluster.pd;

import io.tidb.operator.api.v1alpha1.cluster.PdMember;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.member.PodActions;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;

/**
 * The user's PD leader transfer: pod annotation {@code tidb.pingcap.com/pd-transfer-leader}
 * ({@code none} or {@code delete-pod}) on a PD pod, as upstream's pod controller does it, one call
 * per pass, and only while every one of the cluster's PD members is healthy:
 *
 * <ol>
 *   <li>when the annotated member leads PD, leadership moves to a healthy member that is not
 *       annotated (the lowest ordinal), else to any other healthy one;
 *   <li>with {@code delete-pod}, once it no longer leads, the pod is deleted (its StatefulSet
 *       recreates it without the annotation).
 * </ol>
 *
 * After {@code tidb.pingcap.com/pd-evict-leader-expiration-time} (RFC 3339) the annotation counts
 * as removed; an unknown value is ignored.
 */
public final class PdTransferLeaderAnnotation {

  public static final String KEY = "tidb.pingcap.com/pd-transfer-leader";

  public static final String EXPIRATION_KEY = "tidb.pingcap.com/pd-evict-leader-expiration-time";

  public static final String NONE = "none";

  public static final String DELETE_POD = "delete-pod";

  private PdTransferLeaderAnnotation() {}

  /**
   * @param members this cluster's PD members by name, as PD reported them this reconcile
   * @param leader the PD leader's name
   */
  public record Facts(
      Rollout rollout, Map<String, PdMember> members, Optional<String> leader, Instant now) {}

  /** What the pod asks for now: a known value, not expired; else empty. */
  public static Optional<String> request(ObservedPod pod, Instant now) {
    Optional<String> value =
        pod.annotation(KEY).map(String::trim).filter(v -> NONE.equals(v) || DELETE_POD.equals(v));
    Optional<String> expires = pod.annotation(EXPIRATION_KEY);
    if (value.isPresent() && expires.isPresent()) {
      try {
        if (!now.isBefore(Instant.parse(expires.get().trim()))) {
          return Optional.empty();
        }
      } catch (DateTimeParseException e) {
        return Optional.empty(); // as upstream: a time that cannot be read has expired
      }
    }
    return value;
  }

  public static MemberDecision decide(Facts f) {
    for (ObservedPod p : f.rollout().pods().values()) {
      Optional<String> asked = request(p, f.now());
      if (asked.isEmpty() || p.terminating()) {
        continue;
      }
      String ask = KEY + "=" + asked.get();
      Optional<String> unhealthy = f.members().entrySet().stream()
          .filter(e -> !PdScaleIn.healthy(e.getValue()))
          .map(Map.Entry::getKey)
          .findFirst();
      if (unhealthy.isPresent()) {
        return MemberDecision.waitFor(
            "pod " + p.name() + " asks " + ask + "; waiting until every PD member is healthy ("
                + unhealthy.get() + " is not)");
      }
      if (f.leader().filter(p.name()::equals).isPresent()) {
        Optional<String> target = target(f, p.name());
        if (target.isEmpty()) {
          return MemberDecision.waitFor(
              p.name() + " leads PD and asks " + ask + ", but no other member is healthy to"
                  + " take over");
        }
        return new MemberDecision.Act(
            new PdActions.TransferLeader(p.name(), target.get()),
            "moving PD leadership from " + p.name() + " to " + target.get() + " as its"
                + " annotation " + ask + " asks");
      }
      if (DELETE_POD.equals(asked.get())) {
        return new MemberDecision.Act(
            new PodActions.DeletePod(p.name(), p.uid()),
            "deleting pod " + p.name() + " (" + ask + "): it does not lead PD");
      }
    }
    return MemberDecision.IDLE;
  }

  private static Optional<String> target(Facts f, String from) {
    Comparator<String> byOrdinal = Comparator.comparingInt(PdTransferLeaderAnnotation::ordinalOf)
        .thenComparing(Comparator.naturalOrder());
    Optional<String> notAnnotated = f.members().entrySet().stream()
        .filter(e -> !e.getKey().equals(from) && PdScaleIn.healthy(e.getValue()))
        .map(Map.Entry::getKey)
        .filter(name -> f.rollout().pods().values().stream()
            .noneMatch(p -> p.name().equals(name) && request(p, f.now()).isPresent()))
        .min(byOrdinal);
    if (notAnnotated.isPresent()) {
      return notAnnotated;
    }
    return f.members().entrySet().stream()
        .filter(e -> !e.getKey().equals(from) && PdScaleIn.healthy(e.getValue()))
        .map(Map.Entry::getKey)
        .min(byOrdinal);
  }

  private static int ordinalOf(String member) {
    try {
      return Integer.parseInt(member.substring(member.lastIndexOf('-') + 1));
    } catch (NumberFormatException e) {
      return Integer.MAX_VALUE;
    }
  }
}
