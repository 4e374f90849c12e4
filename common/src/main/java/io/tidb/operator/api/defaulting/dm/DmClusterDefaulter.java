package io.tidb.operator.api.defaulting.dm;

import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.defaulting.FilledDefaults;
import io.tidb.operator.api.v1alpha1.cluster.TlsCluster;
import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.api.v1alpha1.dm.DmClusterSpec;
import io.tidb.operator.api.v1alpha1.dm.DmMemberSpec;

/**
 * Upstream's DMCluster defaults: pull policy IfNotPresent, TLS between components off, no PVC
 * reclaim, volumes retained; for dm-master and (when present) dm-worker the base image {@code
 * pingcap/dm} once a version is known, and at most three failover members. Pure: returns a copy.
 */
public final class DmClusterDefaulter {

  /** Image of dm-master and dm-worker without a tag. */
  public static final String DEFAULT_BASE_IMAGE = "pingcap/dm";
  public static final String DEFAULT_IMAGE_PULL_POLICY = "IfNotPresent";
  public static final String DEFAULT_PV_RECLAIM_POLICY = "Retain";
  public static final int DEFAULT_MAX_FAILOVER_COUNT = 3;

  private DmClusterDefaulter() {}

  public static DmCluster withDefaults(DmCluster dc) {
    return defaultInPlace(ApiObjects.deepCopy(dc));
  }

  /** {@link #withDefaults} filled into {@code out} itself, for a caller that owns it (the webhook). */
  public static DmCluster defaultInPlace(DmCluster out) {
    return defaultInPlace(out, FilledDefaults.NONE);
  }

  /** {@link #defaultInPlace(DmCluster)}, telling {@code filled} each field it fills in. */
  public static DmCluster defaultInPlace(DmCluster out, FilledDefaults filled) {
    DmClusterSpec spec = out.getSpec();
    if (spec == null) {
      return out;
    }
    filled.fillEmpty(spec.getImagePullPolicy(), spec::setImagePullPolicy,
        DEFAULT_IMAGE_PULL_POLICY, "/spec/imagePullPolicy");
    if (spec.getTlsCluster() == null) {
      TlsCluster tls = new TlsCluster();
      tls.setEnabled(false);
      spec.setTlsCluster(tls);
      filled.filled("/spec/tlsCluster", tls);
    }
    filled.fillUnset(spec.getEnablePVReclaim(), spec::setEnablePVReclaim,
        false, "/spec/enablePVReclaim");
    filled.fillUnset(spec.getPvReclaimPolicy(), spec::setPvReclaimPolicy,
        DEFAULT_PV_RECLAIM_POLICY, "/spec/pvReclaimPolicy");
    defaultMember(spec, spec.getMaster(), "/spec/master", filled);
    defaultMember(spec, spec.getWorker(), "/spec/worker", filled);
    return out;
  }

  private static void defaultMember(
      DmClusterSpec spec, DmMemberSpec member, String at, FilledDefaults filled) {
    if (member == null) {
      return;
    }
    boolean versionKnown = !isEmpty(spec.getVersion()) || member.getVersion() != null;
    if (versionKnown && isEmpty(member.getBaseImage())) {
      member.setBaseImage(DEFAULT_BASE_IMAGE);
      filled.filled(at + "/baseImage", DEFAULT_BASE_IMAGE);
    }
    filled.fillUnset(member.getMaxFailoverCount(), member::setMaxFailoverCount,
        DEFAULT_MAX_FAILOVER_COUNT, at + "/maxFailoverCount");
  }

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }
}
