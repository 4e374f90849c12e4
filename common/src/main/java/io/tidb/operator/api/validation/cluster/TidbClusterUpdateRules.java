package io.tidb.operator.api.validation.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.tidb.operator.api.config.InvalidConfigException;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.Components;
import io.tidb.operator.api.v1alpha1.cluster.MemberSpec;
import io.tidb.operator.api.v1alpha1.cluster.PdSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbSpec;
import io.tidb.operator.api.v1alpha1.cluster.TikvSpec;
import io.tidb.operator.api.validation.Violation;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The rules that compare a TidbCluster with the version it replaces: what may not change, be
 * cleared or shrink once set.
 */
final class TidbClusterUpdateRules {

  private TidbClusterUpdateRules() {}

  static void validate(TidbCluster oldTc, TidbCluster tc, List<Violation> out) {
    validateInstance(oldTc, tc, out);
    TidbClusterSpec oldSpec = oldTc.getSpec();
    TidbClusterSpec spec = tc.getSpec();
    if (oldSpec == null || spec == null) {
      return;
    }
    validatePdConfigUpdate(oldSpec.getPd(), spec.getPd(), out);
    validateCertAllowedCn(spec, out);
    validateBootstrapSqlUpdate(oldSpec.getTidb(), spec.getTidb(), out);
    validateNotCleared(oldSpec, spec, out);
    StorageRules.validateNoShrink(oldSpec, spec, out);
  }

  /**
   * The instance a cluster's objects are labelled with: label {@code app.kubernetes.io/instance}
   * when set, else the cluster's name. It may not change: adding the label with the cluster's
   * name changes nothing, any other value would relabel every object.
   */
  private static void validateInstance(TidbCluster oldTc, TidbCluster tc, List<Violation> out) {
    String oldInstance = instanceName(oldTc);
    String newInstance = instanceName(tc);
    if (!Objects.equals(oldInstance, newInstance)) {
      out.add(Violation.immutable("metadata.labels[" + TidbClusterValidator.INSTANCE_LABEL + "]",
          newInstance, "must not change (was " + describe(oldInstance) + ")"));
    }
  }

  static String instanceName(TidbCluster tc) {
    if (tc.getMetadata() == null) {
      return null;
    }
    Map<String, String> labels = tc.getMetadata().getLabels();
    if (labels != null && labels.containsKey(TidbClusterValidator.INSTANCE_LABEL)) {
      return labels.get(TidbClusterValidator.INSTANCE_LABEL);
    }
    return tc.getMetadata().getName();
  }

  private static void validatePdConfigUpdate(PdSpec oldPd, PdSpec pd, List<Violation> out) {
    if (oldPd == null || pd == null || oldPd.getConfig() == null || pd.getConfig() == null) {
      return;
    }
    if (!parses(oldPd.getConfig()) || !parses(pd.getConfig())) {
      return; // a config that does not parse is reported by the always-checked rules
    }
    for (String section : List.of("schedule", "replication")) {
      Optional<JsonNode> before = oldPd.getConfig().get(section);
      Optional<JsonNode> after = pd.getConfig().get(section);
      if (!before.equals(after)) {
        out.add(Violation.immutable("spec.pd.config." + section,
            after.map(JsonNode::toString).orElse(null),
            "PD keeps " + section + " settings in etcd after bootstrap, so they are immutable here;"
                + " change them with pd-ctl instead"));
      }
    }
  }

  private static void validateCertAllowedCn(TidbClusterSpec spec, List<Violation> out) {
    checkAllowedCn("spec.pd.config", spec.getPd() == null ? null : spec.getPd().getConfig(), out);
    checkAllowedCn("spec.tikv.config", spec.getTikv() == null ? null : spec.getTikv().getConfig(), out);
    checkAllowedCn("spec.tidb.config", spec.getTidb() == null ? null : spec.getTidb().getConfig(), out);
  }

  private static void checkAllowedCn(String path, ComponentConfig config, List<Violation> out) {
    if (config == null) {
      return;
    }
    if (!parses(config)) {
      return;
    }
    JsonNode cn = config.get("security.cert-allowed-cn").orElse(null);
    if (cn == null || cn.isNull()) {
      return;
    }
    boolean strings = cn.isArray();
    for (JsonNode item : cn) {
      strings &= item.isTextual();
    }
    if (!strings) {
      out.add(Violation.invalid(path + ".security.cert-allowed-cn", cn.toString(),
          "must be a list of strings, e.g. [\"TiDB\"]"));
    } else if (cn.size() > 1) {
      out.add(Violation.invalid(path + ".security.cert-allowed-cn", cn.toString(),
          "at most one common name is supported"));
    }
  }

  private static void validateBootstrapSqlUpdate(TidbSpec oldTidb, TidbSpec tidb, List<Violation> out) {
    if (oldTidb == null || tidb == null) {
      return;
    }
    if (!Objects.equals(oldTidb.getBootstrapSQLConfigMapName(), tidb.getBootstrapSQLConfigMapName())) {
      out.add(Violation.immutable("spec.tidb.bootstrapSQLConfigMapName", tidb.getBootstrapSQLConfigMapName(),
          "bootstrapSQLConfigMapName is immutable (was "
              + describe(oldTidb.getBootstrapSQLConfigMapName()) + ")"));
    }
  }

  /** A PD, TiKV or TiDB version, base image or config that was set is not cleared. */
  private static void validateNotCleared(TidbClusterSpec oldSpec, TidbClusterSpec spec, List<Violation> out) {
    boolean anyCoreComponent = false;
    for (String name : List.of("pd", "tikv", "tidb")) {
      MemberSpec before = core(oldSpec, name);
      MemberSpec after = core(spec, name);
      if (before == null || after == null) {
        continue;
      }
      anyCoreComponent = true;
      String path = "spec." + name;
      String oldVersion = Components.effectiveVersion(oldSpec, before);
      if (!isEmpty(oldVersion) && isEmpty(Components.effectiveVersion(spec, after))) {
        out.add(Violation.required(path + ".version", "cannot be cleared: set spec.version or "
            + path + ".version (was \"" + oldVersion + "\")"));
      }
      if (!isEmpty(before.getBaseImage()) && isEmpty(after.getBaseImage())) {
        out.add(Violation.required(path + ".baseImage",
            "cannot be cleared (was \"" + before.getBaseImage() + "\")"));
      }
      if (configOf(before) != null && configOf(after) == null) {
        out.add(Violation.required(path + ".config", "cannot be removed once set; use {} for no settings"));
      }
    }
    if (!anyCoreComponent && !isEmpty(oldSpec.getVersion()) && isEmpty(spec.getVersion())) {
      out.add(Violation.required("spec.version", "cannot be cleared (was \"" + oldSpec.getVersion() + "\")"));
    }
  }

  private static ComponentConfig configOf(MemberSpec spec) {
    if (spec instanceof PdSpec s) {
      return s.getConfig();
    } else if (spec instanceof TikvSpec s) {
      return s.getConfig();
    }
    return ((TidbSpec) spec).getConfig();
  }

  private static MemberSpec core(TidbClusterSpec spec, String name) {
    return switch (name) {
      case "pd" -> spec.getPd();
      case "tikv" -> spec.getTikv();
      default -> spec.getTidb();
    };
  }

  /** Whether {@code config} parses; one that does not is reported by the always-checked rules. */
  private static boolean parses(ComponentConfig config) {
    try {
      config.requireValid();
      return true;
    } catch (InvalidConfigException e) {
      return false;
    }
  }

  private static String describe(String value) {
    return value == null ? "unset" : '"' + value + '"';
  }

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }
}
