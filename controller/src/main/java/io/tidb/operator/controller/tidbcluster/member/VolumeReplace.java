package io.tidb.operator.controller.tidbcluster.member;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Volume replace, the parts every component shares (upstream's {@code pvc_replacer.go} and the
 * pod controller's {@code deletePVCsAndPod}): a pod annotated {@code
 * tidb.pingcap.com/replace-volume: "true"} gets new, empty volumes. While a replace is in progress
 * ({@code status.<component>.volReplaceInProgress}) the StatefulSet has {@code
 * spareVolReplaceReplicas} more replicas, so the component keeps its capacity; one annotated pod
 * at a time (lowest ordinal first), the component's rule takes its member out of the cluster (PD:
 * leader moved away, member deleted; TiKV: store deleted until Tombstone), then the pod's claims
 * are deleted and then the pod, each guarded by its uid; the StatefulSet recreates the pod with
 * new claims and no annotation. The replace ends when no pod is annotated and every pod the spec
 * asks for is back (Ready, a healthy member or an Up store); the spare replicas are then removed
 * by an ordinary scale-in.
 */
public final class VolumeReplace {

  /** Upstream's pod annotation. */
  public static final String ANNOTATION = "tidb.pingcap.com/replace-volume";

  /** The only value upstream acts on; any other is ignored (and logged). */
  public static final String VALUE = "true";

  /** Component condition while a replace is in progress. */
  public static final String CONDITION = "VolumeReplace";

  /** Normal Event when a replace starts (spare replicas added). */
  public static final String STARTED_EVENT = "VolumeReplaceStarted";

  /** Normal Event when a replace is over (spare replicas removed next). */
  public static final String FINISHED_EVENT = "VolumeReplaced";

  /** Event reason of the claim and pod deletions. */
  public static final String DELETING_EVENT = "VolumeReplacing";

  /** Upstream's default of {@code spareVolReplaceReplicas}. */
  public static final int DEFAULT_SPARE = 1;

  private VolumeReplace() {}

  /** The pods below {@code replicas} annotated {@code replace-volume: "true"}, by ordinal. */
  public static List<ObservedPod> annotated(Rollout rollout) {
    List<ObservedPod> pods = new ArrayList<>();
    for (int ordinal = 0; ordinal < rollout.replicas(); ordinal++) {
      rollout.pod(ordinal)
          .filter(p -> VALUE.equals(p.annotation(ANNOTATION).orElse(null)))
          .ifPresent(pods::add);
    }
    return pods;
  }

  /** The pods carrying the annotation with a value other than {@code "true"} (ignored). */
  public static List<String> ignored(Rollout rollout) {
    List<String> pods = new ArrayList<>();
    for (ObservedPod p : rollout.pods().values()) {
      p.annotation(ANNOTATION).filter(v -> !VALUE.equals(v)).ifPresent(v -> pods.add(p.name()));
    }
    return pods;
  }

  /**
   * Whether a replace is in progress: some pod is annotated, or a replace was in progress and not
   * every pod the spec asks for is back yet (a replaced pod is recreated without the annotation,
   * and the spare replicas must stay until it has rejoined).
   */
  public static boolean inProgress(boolean annotated, boolean wasInProgress, boolean allBack) {
    return annotated || (wasInProgress && !allBack);
  }

  /** {@code spareVolReplaceReplicas}, upstream's default 1 when unset, never negative. */
  public static int spare(Integer spareVolReplaceReplicas) {
    return spareVolReplaceReplicas == null ? DEFAULT_SPARE : Math.max(0, spareVolReplaceReplicas);
  }

  /**
   * The last steps once the pod's member has left the cluster: its claims are deleted (those not
   * already being deleted), then, when every claim is being deleted or gone, the pod.
   *
   * @param claims the pod's claims that exist, by name
   */
  public static MemberDecision dropVolumes(
      ObservedPod pod, Map<String, PersistentVolumeClaim> claims, String displayName) {
    Map<String, String> live = new TreeMap<>();
    claims.forEach((name, pvc) -> {
      if (pvc.getMetadata().getDeletionTimestamp() == null) {
        live.put(name, pvc.getMetadata().getUid());
      }
    });
    if (!live.isEmpty()) {
      return new MemberDecision.Act(
          new DeleteClaims(live),
          "replacing the volumes of " + pod.name() + ": deleting volume claim"
              + (live.size() == 1 ? " " : "s ") + String.join(", ", live.keySet()));
    }
    if (!pod.terminating()) {
      return new MemberDecision.Act(
          new DeletePod(pod.name(), pod.uid()),
          "replacing the volumes of " + pod.name() + ": deleting the pod; the StatefulSet"
              + " recreates it with new volumes and it joins " + displayName + " as a new member");
    }
    return MemberDecision.waitFor(
        "replacing the volumes of " + pod.name() + ": waiting for the pod to be deleted");
  }

  /** Deletes claims, each only if it still has the uid decided on. */
  public record DeleteClaims(Map<String, String> uids) implements MemberAction {
    public DeleteClaims {
      uids = Map.copyOf(uids);
    }

    @Override
    public String reason() {
      return DELETING_EVENT;
    }

    @Override
    public void perform(ClusterContext ctx) {
      new TreeMap<>(uids).forEach((name, uid) -> ctx.claims().delete(name, uid));
    }
  }

  /** Deletes the pod, only if it still has the uid decided on. */
  public record DeletePod(String pod, String uid) implements MemberAction {
    @Override
    public String reason() {
      return DELETING_EVENT;
    }

    @Override
    public void perform(ClusterContext ctx) throws IOException {
      ctx.deletions().deletePod(pod, uid);
    }
  }

  /**
   * The claims of {@code pod} that exist, by name, from the API server: whether they are gone
   * decides the pod's deletion, which a cache trailing the claims' deletion must not.
   */
  public static Map<String, PersistentVolumeClaim> claimsOf(
      ClusterContext ctx, io.fabric8.kubernetes.api.model.apps.StatefulSet sts, ObservedPod pod) {
    Map<String, PersistentVolumeClaim> claims = new TreeMap<>();
    for (String name : VolumeActions.claimNames(sts, pod.ordinal())) {
      Optional<PersistentVolumeClaim> pvc = ctx.claims().current(name);
      pvc.ifPresent(c -> claims.put(name, c));
    }
    return claims;
  }
}
