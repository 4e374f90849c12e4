package io.tidb.operator.api.defaulting.monitor;

import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.defaulting.FilledDefaults;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitorSpec;
import io.tidb.operator.api.v1alpha1.shared.TidbClusterRef;
import java.util.List;

/**
 * Upstream's TidbMonitor defaults: a cluster reference without a namespace means the monitor's
 * namespace (TidbClusters and DMClusters), and the data volume is retained. Pure: returns a copy.
 */
public final class TidbMonitorDefaulter {

  /** Upstream's default {@code spec.pvReclaimPolicy}. */
  public static final String DEFAULT_PV_RECLAIM_POLICY = "Retain";

  private TidbMonitorDefaulter() {}

  public static TidbMonitor withDefaults(TidbMonitor monitor) {
    return defaultInPlace(ApiObjects.deepCopy(monitor));
  }

  /** {@link #withDefaults} filled into {@code out} itself, for a caller that owns it (the webhook). */
  public static TidbMonitor defaultInPlace(TidbMonitor out) {
    return defaultInPlace(out, FilledDefaults.NONE);
  }

  /** {@link #defaultInPlace(TidbMonitor)}, telling {@code filled} each field it fills in. */
  public static TidbMonitor defaultInPlace(TidbMonitor out, FilledDefaults filled) {
    TidbMonitorSpec spec = out.getSpec();
    if (spec == null) {
      return out;
    }
    String namespace = out.getMetadata() == null ? null : out.getMetadata().getNamespace();
    defaultNamespaces(spec.getClusters(), namespace, "/spec/clusters/", filled);
    if (spec.getDm() != null) {
      defaultNamespaces(spec.getDm().getClusters(), namespace, "/spec/dm/clusters/", filled);
    }
    filled.fillUnset(spec.getPvReclaimPolicy(), spec::setPvReclaimPolicy,
        DEFAULT_PV_RECLAIM_POLICY, "/spec/pvReclaimPolicy");
    return out;
  }

  private static void defaultNamespaces(
      List<TidbClusterRef> refs, String namespace, String at, FilledDefaults filled) {
    if (refs == null || namespace == null) {
      return;
    }
    for (int i = 0; i < refs.size(); i++) {
      TidbClusterRef ref = refs.get(i);
      if (ref != null && (ref.getNamespace() == null || ref.getNamespace().isEmpty())) {
        ref.setNamespace(namespace);
        filled.filled(at + i + "/namespace", namespace);
      }
    }
  }
}
