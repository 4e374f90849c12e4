package io.tidb.operator.controller.tidbcluster.member;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.tidb.operator.controller.tidbcluster.pipeline.VolumeClaims;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Upstream's orphan pods cleaner ({@code orphan_pods_cleaner.go}) for PD and TiKV: a failover or a
 * volume replace deletes a pod's claims, and the StatefulSet controller may recreate the pod
 * before it has seen the claims go; the new pod then waits for claims that will never come back
 * and is never scheduled. Such a pod (not scheduled, naming a claim that does not exist) is
 * deleted so the StatefulSet creates it again, with new claims. Guards as upstream: a pod on a
 * node, or without claims, is never touched; a claim missing from the informer's cache is read
 * from the API server before the pod counts as an orphan ({@link #claimExists}); the deletion re-reads the pod and deletes it only if it is still the same (uid) and still not
 * scheduled.
 */
public final class OrphanPods {

  private OrphanPods() {}

  /**
   * One pod as the rule sees it.
   *
   * @param nodeName {@code spec.nodeName}, empty when not scheduled
   * @param claims the claims its volumes name
   */
  public record Candidate(String pod, String uid, String nodeName, List<String> claims) {
    public Candidate {
      nodeName = nodeName == null ? "" : nodeName;
      claims = List.copyOf(claims);
    }

    public static Candidate of(Pod pod) {
      List<String> claims = new ArrayList<>();
      List<Volume> volumes = pod.getSpec() == null ? null : pod.getSpec().getVolumes();
      for (Volume v : volumes == null ? List.<Volume>of() : volumes) {
        if (v.getPersistentVolumeClaim() != null
            && v.getPersistentVolumeClaim().getClaimName() != null
            && !v.getPersistentVolumeClaim().getClaimName().isEmpty()) {
          claims.add(v.getPersistentVolumeClaim().getClaimName());
        }
      }
      return new Candidate(
          pod.getMetadata().getName(),
          pod.getMetadata().getUid(),
          pod.getSpec() == null ? null : pod.getSpec().getNodeName(),
          claims);
    }
  }

  /** An orphan to delete and the claim it misses. */
  public record Orphan(String pod, String uid, String missingClaim) {}

  /**
   * The orphans among {@code pods}.
   *
   * @param claimExists whether a claim exists ({@link #claimExists}), only called for pods that
   *     are not scheduled
   */
  public static List<Orphan> find(List<Candidate> pods, Predicate<String> claimExists) {
    List<Orphan> orphans = new ArrayList<>();
    for (Candidate c : pods) {
      if (!c.nodeName().isEmpty() || c.claims().isEmpty()) {
        continue;
      }
      Optional<String> missing = c.claims().stream().filter(claimExists.negate()).findFirst();
      missing.ifPresent(m -> orphans.add(new Orphan(c.pod(), c.uid(), m)));
    }
    return orphans;
  }

  /**
   * Whether a claim exists: in the informer's cache, or, when the cache does not have it (the
   * StatefulSet controller creates a pod's claims just before the pod, and the claim informer may
   * not have seen them yet), on the API server. So a settled reconcile reads nothing, and a pod
   * is never deleted for a claim only the cache lacks.
   */
  public static Predicate<String> claimExists(VolumeClaims claims) {
    return c -> claims.get(c).isPresent() || claims.current(c).isPresent();
  }

  /** The pod names in {@code orphans}, for a message. */
  public static Set<String> names(List<Orphan> orphans) {
    return new java.util.TreeSet<>(orphans.stream().map(Orphan::pod).toList());
  }
}
