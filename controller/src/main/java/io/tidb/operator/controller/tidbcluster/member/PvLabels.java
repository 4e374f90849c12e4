package io.tidb.operator.controller.tidbcluster.member;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The labels and annotation a PersistentVolume bound to a member's claim carries, as upstream's
 * meta manager sets them ({@code pv_control.go} {@code UpdateMetaInfo}): the claim's namespace as
 * {@code app.kubernetes.io/namespace}, the claim's {@code app.kubernetes.io/component}, {@code
 * name}, {@code managed-by} and {@code instance}, and, once set on the claim, {@code
 * tidb.pingcap.com/cluster-id}, {@code member-id} and {@code store-id}; the claim's {@code
 * tidb.pingcap.com/pod-name} annotation. So a retained volume can be traced to the cluster and
 * member whose data it holds after its claim is gone.
 */
public final class PvLabels {

  public static final String NAMESPACE = "app.kubernetes.io/namespace";

  /** Copied from the claim whenever the claim has them. */
  static final List<String> COPIED =
      List.of(
          "app.kubernetes.io/component",
          "app.kubernetes.io/name",
          "app.kubernetes.io/managed-by",
          "app.kubernetes.io/instance",
          "tidb.pingcap.com/cluster-id",
          "tidb.pingcap.com/member-id",
          "tidb.pingcap.com/store-id");

  public static final String POD_NAME = "tidb.pingcap.com/pod-name";

  private PvLabels() {}

  /** What the volume should carry, and the part of it the volume lacks. */
  public record Meta(Map<String, String> labels, Map<String, String> annotations) {
    public boolean isEmpty() {
      return labels.isEmpty() && annotations.isEmpty();
    }
  }

  /** The labels and annotations the volume lacks or has with another value. */
  public static Meta missing(PersistentVolumeClaim pvc, String namespace, PersistentVolume pv) {
    return missing(wanted(pvc, namespace), pv);
  }

  /** What the volume bound to {@code pvc} (a claim in {@code namespace}) should carry. */
  public static Meta wanted(PersistentVolumeClaim pvc, String namespace) {
    Map<String, String> claimLabels = orEmpty(pvc.getMetadata().getLabels());
    Map<String, String> want = new TreeMap<>();
    want.put(NAMESPACE, namespace);
    for (String key : COPIED) {
      String value = claimLabels.get(key);
      if (value != null && !value.isEmpty()) {
        want.put(key, value);
      }
    }
    Map<String, String> wantAnnotations = new TreeMap<>();
    String pod = orEmpty(pvc.getMetadata().getAnnotations()).get(POD_NAME);
    if (pod != null && !pod.isEmpty()) {
      wantAnnotations.put(POD_NAME, pod);
    }
    return new Meta(want, wantAnnotations);
  }

  /** The part of {@code wanted} the volume lacks or has with another value. */
  public static Meta missing(Meta wanted, PersistentVolume pv) {
    return missing(wanted, new Meta(
        orEmpty(pv.getMetadata().getLabels()), orEmpty(pv.getMetadata().getAnnotations())));
  }

  /** The part of {@code wanted} a volume that carries {@code has} lacks or has with another value. */
  public static Meta missing(Meta wanted, Meta has) {
    return new Meta(
        diff(wanted.labels(), has.labels()), diff(wanted.annotations(), has.annotations()));
  }

  private static Map<String, String> diff(Map<String, String> want, Map<String, String> have) {
    Map<String, String> d = new TreeMap<>();
    want.forEach((k, v) -> {
      if (!v.equals(have.get(k))) {
        d.put(k, v);
      }
    });
    return d;
  }

  private static Map<String, String> orEmpty(Map<String, String> m) {
    return m == null ? Map.of() : m;
  }
}
