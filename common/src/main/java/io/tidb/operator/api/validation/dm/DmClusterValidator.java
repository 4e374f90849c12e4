package io.tidb.operator.api.validation.dm;

import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.api.v1alpha1.dm.DmClusterSpec;
import io.tidb.operator.api.v1alpha1.dm.DmMemberSpec;
import io.tidb.operator.api.v1alpha1.dm.MasterSpec;
import io.tidb.operator.api.validation.AnnotationRules;
import io.tidb.operator.api.validation.Violation;
import io.tidb.operator.api.validation.cluster.ComponentRules;
import io.tidb.operator.api.validation.cluster.StorageRules;
import io.tidb.operator.api.validation.cluster.TidbClusterValidator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * DMCluster validation, upstream's rules: annotations (and the dm-master/dm-worker delete-slots
 * annotations) well formed, a version of 2 or later, the pod and container rules every component
 * shares for discovery, dm-master and dm-worker, a data volume size for dm-master when it has
 * members. Added here: a storage size must be a quantity and a config must render to TOML, both
 * of which upstream only finds out when it builds the pods. Every violation is returned. Pure.
 */
public final class DmClusterValidator {

  /** The annotations that hold the ordinals of pods to delete on scale-in. */
  public static final List<String> DELETE_SLOTS_ANNOTATIONS = List.of(
      "dm-master.tidb.pingcap.com/delete-slots", "dm-worker.tidb.pingcap.com/delete-slots");

  /** Main containers of a DM cluster: an additional container so named is merged into it. */
  public static final Set<String> MAIN_CONTAINERS = Set.of("dm-master", "dm-worker", "discovery");

  /** A version as semver reads it: an optional v, a major, optional minor, patch and suffix. */
  private static final Pattern SEMVER =
      Pattern.compile("^v?(\\d+)(\\.\\d+)?(\\.\\d+)?([-+][0-9A-Za-z.+-]*)?$");

  private DmClusterValidator() {}

  /** The rules every DMCluster must satisfy (on create, update and in the controller). */
  public static List<Violation> validate(DmCluster dc) {
    List<Violation> out = new ArrayList<>();
    Map<String, String> annotations = dc.getMetadata() == null ? null : dc.getMetadata().getAnnotations();
    AnnotationRules.validate("metadata.annotations", annotations, out);
    TidbClusterValidator.validateDeleteSlots(annotations, DELETE_SLOTS_ANNOTATIONS, out);
    DmClusterSpec spec = dc.getSpec();
    if (spec == null) {
      out.add(Violation.required("spec", "a DMCluster needs a spec"));
      return out;
    }
    if (spec.getVersion() != null && majorBelowTwo(spec.getVersion())) {
      out.add(Violation.invalid("spec.version", spec.getVersion(),
          "DM 1.x is not supported; use v2.0.0 or later"));
    }
    if (spec.getDiscovery() != null) {
      ComponentRules.validate("spec.discovery", spec.getDiscovery(), MAIN_CONTAINERS, out);
    }
    MasterSpec master = spec.getMaster();
    if (master != null) {
      validateMember("spec.master", master, out);
      if (master.getReplicas() != null && master.getReplicas() > 0 && isEmpty(master.getStorageSize())) {
        out.add(Violation.required("spec.master.storageSize",
            "dm-master keeps its data on a volume: set a size such as 10Gi"));
      }
    }
    if (spec.getWorker() != null) {
      validateMember("spec.worker", spec.getWorker(), out);
    }
    return out;
  }

  private static void validateMember(String path, DmMemberSpec member, List<Violation> out) {
    ComponentRules.validate(path, member, MAIN_CONTAINERS, out);
    if (!isEmpty(member.getStorageSize()) && !StorageRules.isQuantity(member.getStorageSize())) {
      out.add(Violation.invalid(path + ".storageSize", member.getStorageSize(),
          "must be a Kubernetes quantity such as 10Gi"));
    }
    TidbClusterValidator.validateConfigParses(path + ".config", member.getConfig(), out);
  }

  /** True when {@code version} reads as semver with a major version below 2 (e.g. v1.0.7). */
  static boolean majorBelowTwo(String version) {
    Matcher m = SEMVER.matcher(version);
    if (!m.matches()) {
      return false;
    }
    try {
      return Long.parseLong(m.group(1)) < 2;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }
}
