package io.tidb.operator.controller.tidbcluster.member;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.tidb.operator.api.KubeTime;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One pod of a component's StatefulSet, as the scale and upgrade rules see it.
 *
 * @param revision the StatefulSet revision the pod was created from ({@code
 *     controller-revision-hash}), or null when it carries none
 * @param readySince when the pod last became Ready; empty while it is not Ready
 * @param terminating the pod is being deleted
 * @param annotations the pod's annotations (the care annotations, e.g. {@code
 *     tidb.pingcap.com/evict-leader}, are read from here)
 */
public record ObservedPod(
    int ordinal,
    String name,
    String uid,
    String revision,
    Optional<Instant> readySince,
    Instant created,
    boolean terminating,
    Map<String, String> annotations) {

  public ObservedPod {
    annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
  }

  /** A pod without annotations. */
  public ObservedPod(
      int ordinal,
      String name,
      String uid,
      String revision,
      Optional<Instant> readySince,
      Instant created,
      boolean terminating) {
    this(ordinal, name, uid, revision, readySince, created, terminating, Map.of());
  }

  /** The value of annotation {@code key}, empty when the pod does not carry it. */
  public Optional<String> annotation(String key) {
    return Optional.ofNullable(annotations.get(key));
  }

  /** The label the StatefulSet controller puts on each pod. */
  public static final String REVISION_LABEL = "controller-revision-hash";

  public boolean ready() {
    return readySince.isPresent() && !terminating;
  }

  /** Ready for at least {@code seconds} at {@code now}. */
  public boolean readyFor(long seconds, Instant now) {
    return ready() && !readySince.get().plusSeconds(seconds).isAfter(now);
  }

  /** The pod as seen, or empty when its name has no ordinal suffix. */
  public static Optional<ObservedPod> of(Pod pod) {
    String name = pod.getMetadata().getName();
    int dash = name.lastIndexOf('-');
    if (dash < 0 || dash == name.length() - 1) {
      return Optional.empty();
    }
    int ordinal;
    try {
      ordinal = Integer.parseInt(name.substring(dash + 1));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    Map<String, String> labels = pod.getMetadata().getLabels();
    return Optional.of(
        new ObservedPod(
            ordinal,
            name,
            pod.getMetadata().getUid(),
            labels == null ? null : labels.get(REVISION_LABEL),
            readySince(pod),
            parse(pod.getMetadata().getCreationTimestamp()).orElse(Instant.EPOCH),
            pod.getMetadata().getDeletionTimestamp() != null,
            pod.getMetadata().getAnnotations()));
  }

  private static Optional<Instant> readySince(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    for (PodCondition c : pod.getStatus().getConditions()) {
      if ("Ready".equals(c.getType()) && "True".equals(c.getStatus())) {
        return Optional.of(parse(c.getLastTransitionTime()).orElse(Instant.EPOCH));
      }
    }
    return Optional.empty();
  }

  private static Optional<Instant> parse(String timestamp) {
    if (timestamp == null || timestamp.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(KubeTime.parse(timestamp));
  }
}
