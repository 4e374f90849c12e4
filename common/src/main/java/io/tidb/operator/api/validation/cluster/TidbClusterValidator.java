package io.tidb.operator.api.validation.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tidb.operator.api.GoDuration;
import io.tidb.operator.api.config.InvalidConfigException;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.Components.Member;
import io.tidb.operator.api.v1alpha1.cluster.Components;
import io.tidb.operator.api.v1alpha1.cluster.MemberSpec;
import io.tidb.operator.api.v1alpha1.cluster.PdMsSpec;
import io.tidb.operator.api.v1alpha1.cluster.PdSpec;
import io.tidb.operator.api.v1alpha1.cluster.PumpSpec;
import io.tidb.operator.api.v1alpha1.cluster.ScalePolicy;
import io.tidb.operator.api.v1alpha1.cluster.TicdcSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbSpec;
import io.tidb.operator.api.v1alpha1.cluster.TiflashSpec;
import io.tidb.operator.api.v1alpha1.cluster.TikvSpec;
import io.tidb.operator.api.v1alpha1.cluster.TiproxySpec;
import io.tidb.operator.api.v1alpha1.shared.ServiceSpec;
import io.tidb.operator.api.validation.AnnotationRules;
import io.tidb.operator.api.validation.DerivedNameLengths;
import io.tidb.operator.api.validation.IpAddresses;
import io.tidb.operator.api.validation.Violation;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Upstream TiDB Operator's TidbCluster validation rules, as pure functions that return every
 * violation found (Kubernetes {@code field.ErrorList} style). Malformed input (quantities,
 * durations, CIDRs, JSON, TOML) is reported as a violation; nothing here throws on bad input.
 *
 * <p>Three sets: rules checked always, rules checked on create, rules checked on update. This
 * class is the entry point and holds the cluster-wide rules; areas have their own classes: {@link
 * ComponentRules} (fields every component shares, with {@link
 * io.tidb.operator.api.validation.EnvVarRules}), {@link StorageRules}, {@link TiflashConfigRules},
 * {@link TiciRules} and {@link TidbClusterUpdateRules}.
 */
public final class TidbClusterValidator {

  /** Annotations that hold a JSON array of int32 (the ordinals of pods to delete on scale-in). */
  public static final List<String> DELETE_SLOTS_ANNOTATIONS = List.of(
      "pd.tidb.pingcap.com/delete-slots", "tidb.tidb.pingcap.com/delete-slots",
      "tikv.tidb.pingcap.com/delete-slots", "tiflash.tidb.pingcap.com/delete-slots",
      "tiproxy.tidb.pingcap.com/delete-slots", "ticdc.tidb.pingcap.com/delete-slots");

  /** Label whose value must not change once set. */
  public static final String INSTANCE_LABEL = "app.kubernetes.io/instance";

  /** Start script v2 feature flags upstream knows. */
  /** The values of {@code spec.startScriptVersion}; empty means unset. */
  public static final List<String> START_SCRIPT_VERSIONS = List.of("", "v1", "v2");

  public static final List<String> START_SCRIPT_V2_FEATURE_FLAGS =
      List.of("WaitForDnsNameIpMatch", "PreferPDAddressesOverDiscovery", "BashShebang", "NoWaitDNS");

  /** Components whose {@code baseImage} is required and whose {@code image} is refused on create. */
  private static final Set<String> CORE_COMPONENTS = Set.of("pd", "tikv", "tidb");

  private static final ObjectMapper JSON = new ObjectMapper();

  private TidbClusterValidator() {}

  // ---------------------------------------------------------------- entry points

  /** The rules checked on every create and update. */
  public static List<Violation> validate(TidbCluster tc) {
    List<Violation> out = new ArrayList<>();
    Map<String, String> annotations = tc.getMetadata() == null ? null : tc.getMetadata().getAnnotations();
    AnnotationRules.validate("metadata.annotations", annotations, out);
    validateDeleteSlots(annotations, out);
    TidbClusterSpec spec = tc.getSpec();
    if (spec == null) {
      out.add(Violation.required("spec", "a TidbCluster needs a spec"));
      return out;
    }
    validateSpec(spec, out);
    return out;
  }

  /** The rules checked when a TidbCluster is created, including {@link #validate}. */
  public static List<Violation> validateCreate(TidbCluster tc) {
    List<Violation> out = validate(tc);
    TidbClusterSpec spec = tc.getSpec();
    if (spec == null) {
      return out;
    }
    List<Member> members = Components.members(spec);
    DerivedNameLengths.check(tc.getMetadata(), derivedObjects(members), out);
    if (members.isEmpty() && isEmpty(spec.getVersion())) {
      out.add(Violation.required("spec.version", "must not be empty"));
    }
    for (Member m : members) {
      if (isEmpty(Components.effectiveVersion(spec, m.spec()))) {
        out.add(Violation.required(m.path() + ".version",
            "must not be empty: set spec.version or " + m.path() + ".version"));
      }
      if (CORE_COMPONENTS.contains(m.name()) && !isEmpty(m.spec().getImage())) {
        out.add(new Violation(m.path() + ".image", Violation.Type.FORBIDDEN, m.spec().getImage(),
            "image is deprecated; use " + m.path() + ".baseImage and a version instead"));
      }
    }
    for (Member m : members) {
      if (CORE_COMPONENTS.contains(m.name()) && isEmpty(m.spec().getBaseImage())) {
        out.add(Violation.required(m.path() + ".baseImage", "must not be empty"));
      }
    }
    return out;
  }

  /**
   * The objects named after the cluster: each component's StatefulSet {@code <name>-<component>}
   * (PD microservices are not run by this operator) and discovery's Service with PD.
   */
  static List<DerivedNameLengths.Derived> derivedObjects(List<Member> members) {
    List<DerivedNameLengths.Derived> derived = new ArrayList<>();
    for (Member m : members) {
      if (m.name().startsWith("pdms")) {
        continue;
      }
      derived.add(DerivedNameLengths.Derived.statefulSet("", "-" + m.name()));
      if (m.name().equals("pd")) {
        derived.add(DerivedNameLengths.Derived.service("", "-discovery"));
      }
    }
    return derived;
  }

  /** The rules checked when a TidbCluster is updated, including {@link #validate} on the new object. */
  public static List<Violation> validateUpdate(TidbCluster oldTc, TidbCluster tc) {
    List<Violation> out = validate(tc);
    TidbClusterUpdateRules.validate(oldTc, tc, out);
    return out;
  }

  // ---------------------------------------------------------------- always

  static void validateDeleteSlots(Map<String, String> annotations, List<Violation> out) {
    validateDeleteSlots(annotations, DELETE_SLOTS_ANNOTATIONS, out);
  }

  /** Each annotation of {@code keys} present in {@code annotations} holds a JSON array of int32. */
  public static void validateDeleteSlots(
      Map<String, String> annotations, List<String> keys, List<Violation> out) {
    if (annotations == null) {
      return;
    }
    for (String key : keys) {
      String value = annotations.get(key);
      if (annotations.containsKey(key) && !isInt32Array(value)) {
        out.add(Violation.invalid("metadata.annotations[" + key + "]", value,
            "must be a JSON array of 32-bit integers, e.g. [1,3]"));
      }
    }
  }

  /** A JSON array of int32, or JSON {@code null} (no slots), as Go reads it into {@code []int32}. */
  private static boolean isInt32Array(String value) {
    if (value == null) {
      return false;
    }
    try {
      JsonNode node = JSON.readTree(value);
      if (node == null || node.isNull()) {
        return node != null;
      }
      if (!node.isArray()) {
        return false;
      }
      for (JsonNode item : node) {
        if (!item.isIntegralNumber() || !item.canConvertToInt()) {
          return false;
        }
      }
      return true;
    } catch (java.io.IOException e) {
      return false;
    }
  }

  private static void validateSpec(TidbClusterSpec spec, List<Violation> out) {
    for (Member m : Components.members(spec)) {
      ComponentRules.validate(m.path(), m.spec(), out);
      validateConfigParses(m.path() + ".config", configOf(m.spec()), out);
    }
    if (spec.getDiscovery() != null) {
      ComponentRules.validate("spec.discovery", spec.getDiscovery(), out);
    }
    PdSpec pd = spec.getPd();
    if (pd != null) {
      StorageRules.requireStorage("spec.pd", pd, out);
      StorageRules.validateStorageVolumes("spec.pd", pd.getStorageVolumes(), out);
      validateService("spec.pd.service", pd.getService(), out);
    }
    if (spec.getPdms() != null) {
      for (int i = 0; i < spec.getPdms().size(); i++) {
        PdMsSpec pdms = spec.getPdms().get(i);
        if (pdms != null) {
          StorageRules.validateStorageVolumes("spec.pdms[" + i + "]", pdms.getStorageVolumes(), out);
          validateService("spec.pdms[" + i + "].service", pdms.getService(), out);
        }
      }
    }
    TikvSpec tikv = spec.getTikv();
    if (tikv != null) {
      StorageRules.requireStorage("spec.tikv", tikv, out);
      StorageRules.validateStorageVolumes("spec.tikv", tikv.getStorageVolumes(), out);
      validateScalePolicy("spec.tikv.scalePolicy", tikv.getScalePolicy(), out);
      StorageRules.validateDataSubDir("spec.tikv.dataSubDir", tikv.getDataSubDir(), out);
      StorageRules.validateLogVolumeName("spec.tikv", "raftLogVolumeName",
          Boolean.TRUE.equals(tikv.getSeparateRaftLog()), tikv.getRaftLogVolumeName(),
          tikv.getStorageVolumes(), tikv, out);
      StorageRules.validateLogVolumeName("spec.tikv", "rocksDBLogVolumeName",
          Boolean.TRUE.equals(tikv.getSeparateRocksDBLog()), tikv.getRocksDBLogVolumeName(),
          tikv.getStorageVolumes(), tikv, out);
      validatePositiveDuration("spec.tikv.evictLeaderTimeout", tikv.getEvictLeaderTimeout(), out);
      validateDuration("spec.tikv.waitLeaderTransferBackTimeout",
          tikv.getWaitLeaderTransferBackTimeout(), out);
    }
    TidbSpec tidb = spec.getTidb();
    if (tidb != null) {
      StorageRules.validateStorageVolumes("spec.tidb", tidb.getStorageVolumes(), out);
      validateService("spec.tidb.service", tidb.getService(), out);
      validateScalePolicy("spec.tidb.scalePolicy", tidb.getScalePolicy(), out);
      StorageRules.validateLogVolumeName("spec.tidb", "slowLogVolumeName",
          !Boolean.FALSE.equals(tidb.getSeparateSlowLog()), tidb.getSlowLogVolumeName(),
          tidb.getStorageVolumes(), tidb, out);
    }
    TiflashSpec tiflash = spec.getTiflash();
    if (tiflash != null) {
      StorageRules.validateStorageClaims(tiflash.getStorageClaims(), out);
      validateScalePolicy("spec.tiflash.scalePolicy", tiflash.getScalePolicy(), out);
      if (tiflash.getConfig() != null) {
        validateConfigParses("spec.tiflash.config.config", tiflash.getConfig().getConfig(), out);
        validateConfigParses("spec.tiflash.config.proxy", tiflash.getConfig().getProxy(), out);
        TiflashConfigRules.validate(tiflash.getConfig(), out);
      }
    }
    TicdcSpec ticdc = spec.getTicdc();
    if (ticdc != null) {
      StorageRules.validateStorageVolumes("spec.ticdc", ticdc.getStorageVolumes(), out);
      validateDuration("spec.ticdc.gracefulShutdownTimeout", ticdc.getGracefulShutdownTimeout(), out);
    }
    TiproxySpec tiproxy = spec.getTiproxy();
    if (tiproxy != null) {
      StorageRules.validateStorageVolumes("spec.tiproxy", tiproxy.getStorageVolumes(), out);
    }
    PumpSpec pump = spec.getPump();
    if (pump != null) {
      StorageRules.requireStorage("spec.pump", pump, out);
    }
    TiciRules.validate(spec.getTici(), out);
    validatePdAddresses(spec.getPdAddresses(), out);
    validateStartScriptVersion(spec.getStartScriptVersion(), out);
    validateFeatureFlags(spec.getStartScriptV2FeatureFlags(), out);
  }

  private static void validateService(String path, ServiceSpec service, List<Violation> out) {
    if (service == null || service.getLoadBalancerSourceRanges() == null) {
      return;
    }
    List<String> ranges = service.getLoadBalancerSourceRanges();
    for (int i = 0; i < ranges.size(); i++) {
      String range = ranges.get(i);
      if (range == null || !IpAddresses.isCidr(range.trim())) {
        out.add(Violation.invalid(path + ".loadBalancerSourceRanges[" + i + "]", range,
            "must be a CIDR such as 10.0.0.0/8 or fd00::/8"));
      }
    }
  }

  private static void validateScalePolicy(String path, ScalePolicy policy, List<Violation> out) {
    if (policy == null) {
      return;
    }
    if (policy.getScaleInParallelism() != null && policy.getScaleInParallelism() <= 0) {
      out.add(Violation.invalid(path + ".scaleInParallelism", policy.getScaleInParallelism(),
          "must be greater than 0"));
    }
    if (policy.getScaleOutParallelism() != null && policy.getScaleOutParallelism() <= 0) {
      out.add(Violation.invalid(path + ".scaleOutParallelism", policy.getScaleOutParallelism(),
          "must be greater than 0"));
    }
  }

  private static void validateDuration(String path, String value, List<Violation> out) {
    parseDuration(path, value, out);
  }

  /** A Go duration greater than zero, as upstream requires for {@code tikv.evictLeaderTimeout}. */
  private static void validatePositiveDuration(String path, String value, List<Violation> out) {
    Duration d = parseDuration(path, value, out);
    if (d != null && (d.isZero() || d.isNegative())) {
      out.add(Violation.invalid(path, value, "must be a positive duration such as 90s, 10m or 1h30m"));
    }
  }

  private static Duration parseDuration(String path, String value, List<Violation> out) {
    if (value == null) {
      return null;
    }
    try {
      return GoDuration.parse(value);
    } catch (IllegalArgumentException e) {
      out.add(Violation.invalid(path, value, "must be a duration such as 90s, 10m or 1h30m: " + e.getMessage()));
      return null;
    }
  }

  private static void validatePdAddresses(List<String> addresses, List<Violation> out) {
    if (addresses == null) {
      return;
    }
    for (int i = 0; i < addresses.size(); i++) {
      String address = addresses.get(i);
      if (!isHttpUrl(address)) {
        out.add(Violation.invalid("spec.pdAddresses[" + i + "]", address,
            "must be an http or https URL with a host, e.g. http://pd.example:2379"));
      }
    }
  }

  private static boolean isHttpUrl(String text) {
    if (text == null) {
      return false;
    }
    try {
      URI uri = new URI(text);
      return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          && uri.getHost() != null && !uri.getHost().isEmpty();
    } catch (URISyntaxException e) {
      return false;
    }
  }

  private static void validateStartScriptVersion(String version, List<Violation> out) {
    if (version != null && !START_SCRIPT_VERSIONS.contains(version)) {
      out.add(Violation.notSupported("spec.startScriptVersion", version,
          "supported values: \"\" (the operator's default), v1, v2"));
    }
  }

  private static void validateFeatureFlags(List<String> flags, List<Violation> out) {
    if (flags == null) {
      return;
    }
    for (int i = 0; i < flags.size(); i++) {
      if (!START_SCRIPT_V2_FEATURE_FLAGS.contains(flags.get(i))) {
        out.add(Violation.notSupported("spec.startScriptV2FeatureFlags[" + i + "]", flags.get(i),
            "supported values: " + String.join(", ", START_SCRIPT_V2_FEATURE_FLAGS)));
      }
    }
  }

  /** A config given as TOML or as a map renders to a TOML table. */
  public static void validateConfigParses(String path, ComponentConfig config, List<Violation> out) {
    if (config == null) {
      return;
    }
    try {
      config.requireValid();
    } catch (InvalidConfigException e) {
      out.add(Violation.invalid(path, config.isToml() ? config.raw().asText() : config.toString(),
          e.getMessage()));
    }
  }

  private static ComponentConfig configOf(MemberSpec spec) {
    if (spec instanceof PdSpec s) {
      return s.getConfig();
    } else if (spec instanceof PdMsSpec s) {
      return s.getConfig();
    } else if (spec instanceof TikvSpec s) {
      return s.getConfig();
    } else if (spec instanceof TidbSpec s) {
      return s.getConfig();
    } else if (spec instanceof TicdcSpec s) {
      return s.getConfig();
    } else if (spec instanceof TiproxySpec s) {
      return s.getConfig();
    } else if (spec instanceof PumpSpec s) {
      return s.getConfig();
    }
    return null; // TiFlash has two files, checked separately
  }

  // ---------------------------------------------------------------- helpers

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }
}
