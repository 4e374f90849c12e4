package io.tidb.operator.api.validation.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.Quantity;
import io.tidb.operator.api.GoDuration;
import io.tidb.operator.api.config.InvalidConfigException;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.ComponentSpec;
import io.tidb.operator.api.v1alpha1.cluster.Components.Member;
import io.tidb.operator.api.v1alpha1.cluster.Components;
import io.tidb.operator.api.v1alpha1.cluster.ContainerResources;
import io.tidb.operator.api.v1alpha1.cluster.MemberSpec;
import io.tidb.operator.api.v1alpha1.cluster.PdMsSpec;
import io.tidb.operator.api.v1alpha1.cluster.PdSpec;
import io.tidb.operator.api.v1alpha1.cluster.PumpSpec;
import io.tidb.operator.api.v1alpha1.cluster.ScalePolicy;
import io.tidb.operator.api.v1alpha1.cluster.StorageClaim;
import io.tidb.operator.api.v1alpha1.cluster.StorageVolume;
import io.tidb.operator.api.v1alpha1.cluster.TicdcSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbSpec;
import io.tidb.operator.api.v1alpha1.cluster.TiflashSpec;
import io.tidb.operator.api.v1alpha1.cluster.TikvSpec;
import io.tidb.operator.api.v1alpha1.cluster.TiproxySpec;
import io.tidb.operator.api.v1alpha1.shared.ServiceSpec;
import io.tidb.operator.api.validation.IpAddresses;
import io.tidb.operator.api.validation.Violation;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Upstream TiDB Operator's TidbCluster validation rules, as pure functions that return every
 * violation found (Kubernetes {@code field.ErrorList} style). Malformed input (quantities,
 * durations, CIDRs, JSON, TOML) is reported as a violation; nothing here throws on bad input.
 *
 * <p>Three sets: rules checked always, rules checked on create, rules checked on update.
 */
public final class TidbClusterValidator {

  /** Annotations such as {@code tikv.tidb.pingcap.com/delete-slots} hold a JSON array of int32. */
  public static final Pattern DELETE_SLOTS_ANNOTATION =
      Pattern.compile("^[a-z0-9-]+\\.tidb\\.pingcap\\.com/delete-slots$");

  /** Label whose value must not change once set. */
  public static final String INSTANCE_LABEL = "app.kubernetes.io/instance";

  /** Start script v2 feature flags upstream knows. */
  public static final List<String> START_SCRIPT_V2_FEATURE_FLAGS =
      List.of("WaitForDnsNameIpMatch", "PreferPDAddressesOverDiscovery", "BashShebang", "NoWaitDNS");

  /** Names of the main containers; additional containers with these names are merged into them. */
  private static final Set<String> MAIN_CONTAINERS =
      Set.of("pd", "tikv", "tidb", "tiflash", "ticdc", "tiproxy", "pump", "tso", "scheduling");

  private static final ObjectMapper JSON = new ObjectMapper();

  private TidbClusterValidator() {}

  // ---------------------------------------------------------------- entry points

  /** The rules checked on every create and update. */
  public static List<Violation> validate(TidbCluster tc) {
    List<Violation> out = new ArrayList<>();
    validateDeleteSlots(tc.getMetadata() == null ? null : tc.getMetadata().getAnnotations(), out);
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
    if (members.isEmpty() && isEmpty(spec.getVersion())) {
      out.add(Violation.required("spec.version", "must not be empty"));
    }
    for (Member m : members) {
      if (isEmpty(Components.effectiveVersion(spec, m.spec()))) {
        out.add(Violation.required(m.path() + ".version",
            "must not be empty: set spec.version or " + m.path() + ".version"));
      }
      if (!isEmpty(m.spec().getImage())) {
        out.add(new Violation(m.path() + ".image", Violation.Type.FORBIDDEN, m.spec().getImage(),
            "image is deprecated; use " + m.path() + ".baseImage and a version instead"));
      }
    }
    for (Member m : members) {
      if (Set.of("pd", "tikv", "tidb").contains(m.name()) && isEmpty(m.spec().getBaseImage())) {
        out.add(Violation.required(m.path() + ".baseImage", "must not be empty"));
      }
    }
    return out;
  }

  /** The rules checked when a TidbCluster is updated, including {@link #validate} on the new object. */
  public static List<Violation> validateUpdate(TidbCluster oldTc, TidbCluster tc) {
    List<Violation> out = validate(tc);
    String oldInstance = label(oldTc, INSTANCE_LABEL);
    String newInstance = label(tc, INSTANCE_LABEL);
    if (!Objects.equals(oldInstance, newInstance)) {
      out.add(Violation.immutable("metadata.labels[" + INSTANCE_LABEL + "]", newInstance,
          "must not change (was " + (oldInstance == null ? "unset" : '"' + oldInstance + '"') + ")"));
    }
    TidbClusterSpec oldSpec = oldTc.getSpec();
    TidbClusterSpec spec = tc.getSpec();
    if (oldSpec == null || spec == null) {
      return out;
    }
    validatePdConfigUpdate(oldSpec.getPd(), spec.getPd(), out);
    validateCertAllowedCn(spec, out);
    validateBootstrapSqlUpdate(oldSpec.getTidb(), spec.getTidb(), out);
    validateNotCleared(oldSpec, spec, out);
    validateNoShrink(oldSpec, spec, out);
    return out;
  }

  // ---------------------------------------------------------------- always

  static void validateDeleteSlots(Map<String, String> annotations, List<Violation> out) {
    if (annotations == null) {
      return;
    }
    annotations.entrySet().stream()
        .filter(e -> DELETE_SLOTS_ANNOTATION.matcher(e.getKey()).matches())
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> {
          if (!isInt32Array(e.getValue())) {
            out.add(Violation.invalid("metadata.annotations[" + e.getKey() + "]", e.getValue(),
                "must be a JSON array of 32-bit integers, e.g. [1,3]"));
          }
        });
  }

  private static boolean isInt32Array(String value) {
    try {
      JsonNode node = JSON.readTree(value);
      if (node == null || !node.isArray()) {
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
      validateComponent(m.path(), m.spec(), out);
      validateConfigParses(m.path() + ".config", configOf(m.spec()), out);
    }
    if (spec.getDiscovery() != null) {
      validateComponent("spec.discovery", spec.getDiscovery(), out);
    }
    PdSpec pd = spec.getPd();
    if (pd != null) {
      requireStorage("spec.pd", pd, out);
      validateStorageVolumes("spec.pd", pd.getStorageVolumes(), out);
      validateService("spec.pd.service", pd.getService(), out);
    }
    if (spec.getPdms() != null) {
      for (int i = 0; i < spec.getPdms().size(); i++) {
        PdMsSpec pdms = spec.getPdms().get(i);
        if (pdms != null) {
          validateStorageVolumes("spec.pdms[" + i + "]", pdms.getStorageVolumes(), out);
          validateService("spec.pdms[" + i + "].service", pdms.getService(), out);
        }
      }
    }
    TikvSpec tikv = spec.getTikv();
    if (tikv != null) {
      requireStorage("spec.tikv", tikv, out);
      validateStorageVolumes("spec.tikv", tikv.getStorageVolumes(), out);
      validateScalePolicy("spec.tikv.scalePolicy", tikv.getScalePolicy(), out);
      validateDataSubDir("spec.tikv.dataSubDir", tikv.getDataSubDir(), out);
      validateVolumeName("spec.tikv.raftLogVolumeName", tikv.getRaftLogVolumeName(),
          "spec.tikv.storageVolumes", tikv.getStorageVolumes(), out);
      validateVolumeName("spec.tikv.rocksDBLogVolumeName", tikv.getRocksDBLogVolumeName(),
          "spec.tikv.storageVolumes", tikv.getStorageVolumes(), out);
      validateDuration("spec.tikv.evictLeaderTimeout", tikv.getEvictLeaderTimeout(), out);
      validateDuration("spec.tikv.waitLeaderTransferBackTimeout",
          tikv.getWaitLeaderTransferBackTimeout(), out);
    }
    TidbSpec tidb = spec.getTidb();
    if (tidb != null) {
      validateStorageVolumes("spec.tidb", tidb.getStorageVolumes(), out);
      validateService("spec.tidb.service", tidb.getService(), out);
      validateScalePolicy("spec.tidb.scalePolicy", tidb.getScalePolicy(), out);
      validateVolumeName("spec.tidb.slowLogVolumeName", tidb.getSlowLogVolumeName(),
          "spec.tidb.storageVolumes", tidb.getStorageVolumes(), out);
    }
    TiflashSpec tiflash = spec.getTiflash();
    if (tiflash != null) {
      validateStorageClaims(tiflash.getStorageClaims(), out);
      validateScalePolicy("spec.tiflash.scalePolicy", tiflash.getScalePolicy(), out);
      if (tiflash.getConfig() != null) {
        validateConfigParses("spec.tiflash.config.config", tiflash.getConfig().getConfig(), out);
        validateConfigParses("spec.tiflash.config.proxy", tiflash.getConfig().getProxy(), out);
      }
    }
    TicdcSpec ticdc = spec.getTicdc();
    if (ticdc != null) {
      validateStorageVolumes("spec.ticdc", ticdc.getStorageVolumes(), out);
      validateDuration("spec.ticdc.gracefulShutdownTimeout", ticdc.getGracefulShutdownTimeout(), out);
    }
    TiproxySpec tiproxy = spec.getTiproxy();
    if (tiproxy != null) {
      validateStorageVolumes("spec.tiproxy", tiproxy.getStorageVolumes(), out);
    }
    PumpSpec pump = spec.getPump();
    if (pump != null) {
      requireStorage("spec.pump", pump, out);
    }
    validatePdAddresses(spec.getPdAddresses(), out);
    validateFeatureFlags(spec.getStartScriptV2FeatureFlags(), out);
  }

  /** Pod and container fields every component shares. */
  private static void validateComponent(String path, ComponentSpec c, List<Violation> out) {
    validateQuantities(path + ".requests", c.getRequests(), out);
    validateQuantities(path + ".limits", c.getLimits(), out);
    validateEnv(path + ".env", c.getEnv(), out);
    List<Container> additional = c.getAdditionalContainers();
    if (additional != null) {
      for (int i = 0; i < additional.size(); i++) {
        Container container = additional.get(i);
        String cpath = path + ".additionalContainers[" + i + "]";
        if (container == null) {
          out.add(Violation.required(cpath, "must not be null"));
          continue;
        }
        if (isEmpty(container.getName())) {
          out.add(Violation.required(cpath + ".name", "must not be empty"));
        }
        boolean mergedIntoMain = container.getName() != null && MAIN_CONTAINERS.contains(container.getName());
        if (!mergedIntoMain && isEmpty(container.getImage())) {
          out.add(Violation.required(cpath + ".image",
              "an additional container needs an image (only one named like the main container is merged into it)"));
        }
        validateEnv(cpath + ".env", container.getEnv(), out);
      }
    }
  }

  private static void validateQuantities(String path, Map<String, Quantity> quantities, List<Violation> out) {
    if (quantities == null) {
      return;
    }
    quantities.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
      if (!isQuantity(e.getValue())) {
        out.add(Violation.invalid(path + "." + e.getKey(), quantityText(e.getValue()),
            "must be a Kubernetes quantity such as 500m, 4Gi or 100G"));
      }
    });
  }

  private static String quantityText(Quantity q) {
    if (q == null) {
      return null;
    }
    return (q.getAmount() == null ? "" : q.getAmount()) + (q.getFormat() == null ? "" : q.getFormat());
  }

  static boolean isQuantity(Quantity q) {
    if (q == null || q.getAmount() == null) {
      return false;
    }
    return isQuantity(quantityText(q));
  }

  /** Whether {@code text} is a Kubernetes quantity such as 500m, 4Gi or 100G. */
  public static boolean isQuantity(String text) {
    if (text == null || text.isEmpty()) {
      return false;
    }
    try {
      Quantity.getAmountInBytes(new Quantity(text));
      return QUANTITY.matcher(text).matches();
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static final Pattern QUANTITY = Pattern.compile(
      "^[+-]?(\\d+(\\.\\d*)?|\\.\\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?(\\d+(\\.\\d*)?|\\.\\d+))?$");

  private static void requireStorage(String path, ContainerResources r, List<Violation> out) {
    Quantity storage = r.getRequests() == null ? null : r.getRequests().get("storage");
    if (storage == null) {
      out.add(Violation.required(path + ".requests.storage", "the data volume size is required"));
    }
  }

  private static void validateStorageVolumes(String path, List<StorageVolume> volumes, List<Violation> out) {
    if (volumes == null) {
      return;
    }
    for (int i = 0; i < volumes.size(); i++) {
      StorageVolume v = volumes.get(i);
      String vpath = path + ".storageVolumes[" + i + "]";
      if (v == null) {
        out.add(Violation.required(vpath, "must not be null"));
        continue;
      }
      if (isEmpty(v.getName())) {
        out.add(Violation.required(vpath + ".name", "must not be empty"));
      }
      if (isEmpty(v.getStorageSize())) {
        out.add(Violation.required(vpath + ".storageSize", "must not be empty"));
      } else if (!isQuantity(v.getStorageSize())) {
        out.add(Violation.invalid(vpath + ".storageSize", v.getStorageSize(),
            "must be a Kubernetes quantity such as 10Gi"));
      }
    }
  }

  private static void validateStorageClaims(List<StorageClaim> claims, List<Violation> out) {
    if (claims == null || claims.isEmpty()) {
      out.add(Violation.required("spec.tiflash.storageClaims", "TiFlash needs at least one storage claim"));
      return;
    }
    for (int i = 0; i < claims.size(); i++) {
      StorageClaim claim = claims.get(i);
      String path = "spec.tiflash.storageClaims[" + i + "].resources.requests.storage";
      Quantity storage = claim == null || claim.getResources() == null
          || claim.getResources().getRequests() == null
          ? null : claim.getResources().getRequests().get("storage");
      if (storage == null) {
        out.add(Violation.required(path, "each TiFlash storage claim needs a size"));
      } else if (!isQuantity(storage)) {
        out.add(Violation.invalid(path, quantityText(storage), "must be a Kubernetes quantity such as 100Gi"));
      }
    }
  }

  private static void validateEnv(String path, List<EnvVar> env, List<Violation> out) {
    if (env == null) {
      return;
    }
    for (int i = 0; i < env.size(); i++) {
      EnvVar e = env.get(i);
      String epath = path + "[" + i + "]";
      if (e == null) {
        out.add(Violation.required(epath, "must not be null"));
        continue;
      }
      if (isEmpty(e.getName())) {
        out.add(Violation.required(epath + ".name", "must not be empty"));
      }
      EnvVarSource from = e.getValueFrom();
      if (from == null) {
        continue;
      }
      String fpath = epath + ".valueFrom";
      if (!isEmpty(e.getValue())) {
        out.add(new Violation(fpath, Violation.Type.INVALID, "",
            "may not be specified when `value` is not empty"));
      }
      int sources = 0;
      if (from.getFieldRef() != null) {
        sources++;
        if (isEmpty(from.getFieldRef().getFieldPath())) {
          out.add(Violation.required(fpath + ".fieldRef.fieldPath", "must not be empty"));
        }
      }
      if (from.getResourceFieldRef() != null) {
        sources++;
        if (isEmpty(from.getResourceFieldRef().getResource())) {
          out.add(Violation.required(fpath + ".resourceFieldRef.resource", "must not be empty"));
        }
      }
      if (from.getConfigMapKeyRef() != null) {
        sources++;
        if (isEmpty(from.getConfigMapKeyRef().getKey())) {
          out.add(Violation.required(fpath + ".configMapKeyRef.key", "must not be empty"));
        }
        if (isEmpty(from.getConfigMapKeyRef().getName())) {
          out.add(Violation.required(fpath + ".configMapKeyRef.name", "must not be empty"));
        }
      }
      if (from.getSecretKeyRef() != null) {
        sources++;
        if (isEmpty(from.getSecretKeyRef().getKey())) {
          out.add(Violation.required(fpath + ".secretKeyRef.key", "must not be empty"));
        }
        if (isEmpty(from.getSecretKeyRef().getName())) {
          out.add(Violation.required(fpath + ".secretKeyRef.name", "must not be empty"));
        }
      }
      if (sources == 0) {
        out.add(new Violation(fpath, Violation.Type.INVALID, "",
            "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"));
      } else if (sources > 1) {
        out.add(new Violation(fpath, Violation.Type.INVALID, "",
            "may not have more than one field specified at a time"));
      }
    }
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

  private static void validateDataSubDir(String path, String dir, List<Violation> out) {
    if (isEmpty(dir)) {
      return;
    }
    boolean escapes = List.of(dir.split("/", -1)).contains("..");
    if (dir.startsWith("/") || escapes) {
      out.add(Violation.invalid(path, dir, "must be a relative path without '..'"));
    }
  }

  private static void validateVolumeName(
      String path, String name, String volumesPath, List<StorageVolume> volumes, List<Violation> out) {
    if (isEmpty(name)) {
      return;
    }
    List<String> names = volumes == null ? List.of()
        : volumes.stream().filter(Objects::nonNull).map(StorageVolume::getName).filter(Objects::nonNull).toList();
    if (!names.contains(name)) {
      out.add(Violation.invalid(path, name, "must name one of " + volumesPath + ": " + names));
    }
  }

  private static void validateDuration(String path, String value, List<Violation> out) {
    if (value == null) {
      return;
    }
    try {
      GoDuration.parse(value);
    } catch (IllegalArgumentException e) {
      out.add(Violation.invalid(path, value, "must be a duration such as 90s, 10m or 1h30m: " + e.getMessage()));
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

  private static void validateConfigParses(String path, ComponentConfig config, List<Violation> out) {
    if (config == null) {
      return;
    }
    try {
      config.tree();
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

  // ---------------------------------------------------------------- update

  private static void validatePdConfigUpdate(PdSpec oldPd, PdSpec pd, List<Violation> out) {
    if (oldPd == null || pd == null || oldPd.getConfig() == null || pd.getConfig() == null) {
      return;
    }
    Optional<JsonNode> oldTree = tree(oldPd.getConfig());
    Optional<JsonNode> newTree = tree(pd.getConfig());
    if (oldTree.isEmpty() || newTree.isEmpty()) {
      return; // a config that does not parse is reported by validate()
    }
    for (String section : List.of("schedule", "replication")) {
      JsonNode before = oldTree.get().get(section);
      JsonNode after = newTree.get().get(section);
      if (!Objects.equals(before, after)) {
        out.add(Violation.immutable("spec.pd.config." + section, after == null ? null : after.toString(),
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
    Optional<JsonNode> tree = tree(config);
    JsonNode cn = tree.map(t -> t.path("security").path("cert-allowed-cn")).orElse(null);
    if (cn != null && cn.isArray() && cn.size() > 1) {
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
    }
    if (!anyCoreComponent && !isEmpty(oldSpec.getVersion()) && isEmpty(spec.getVersion())) {
      out.add(Violation.required("spec.version", "cannot be cleared (was \"" + oldSpec.getVersion() + "\")"));
    }
  }

  /**
   * A volume's size may grow (the operator expands the existing claims) but never shrink:
   * Kubernetes cannot shrink a PersistentVolumeClaim, so the change could never be carried out.
   * Compared: every component's {@code requests.storage}, its {@code storageVolumes} by name and
   * TiFlash's {@code storageClaims} by index. Sizes that do not parse are reported by {@link
   * #validate}; a volume that is added or removed is not compared.
   */
  private static void validateNoShrink(TidbClusterSpec oldSpec, TidbClusterSpec spec, List<Violation> out) {
    Map<String, MemberSpec> before = new java.util.LinkedHashMap<>();
    for (Member m : Components.members(oldSpec)) {
      before.put(m.path(), m.spec());
    }
    for (Member m : Components.members(spec)) {
      MemberSpec old = before.get(m.path());
      if (old == null) {
        continue;
      }
      checkNoShrink(m.path() + ".requests.storage", storageOf(old), storageOf(m.spec()), out);
      List<StorageVolume> oldVolumes = storageVolumesOf(old);
      List<StorageVolume> volumes = storageVolumesOf(m.spec());
      for (int i = 0; volumes != null && i < volumes.size(); i++) {
        StorageVolume v = volumes.get(i);
        if (v == null || oldVolumes == null) {
          continue;
        }
        for (StorageVolume o : oldVolumes) {
          if (o != null && v.getName() != null && v.getName().equals(o.getName())) {
            checkNoShrink(m.path() + ".storageVolumes[" + i + "].storageSize",
                o.getStorageSize(), v.getStorageSize(), out);
          }
        }
      }
      if (old instanceof TiflashSpec oldFlash && m.spec() instanceof TiflashSpec flash
          && oldFlash.getStorageClaims() != null && flash.getStorageClaims() != null) {
        for (int i = 0; i < Math.min(oldFlash.getStorageClaims().size(), flash.getStorageClaims().size()); i++) {
          checkNoShrink("spec.tiflash.storageClaims[" + i + "].resources.requests.storage",
              claimStorage(oldFlash.getStorageClaims().get(i)), claimStorage(flash.getStorageClaims().get(i)), out);
        }
      }
    }
  }

  private static String storageOf(MemberSpec m) {
    Quantity q = m.getRequests() == null ? null : m.getRequests().get("storage");
    return quantityText(q);
  }

  private static String claimStorage(StorageClaim c) {
    if (c == null || c.getResources() == null || c.getResources().getRequests() == null) {
      return null;
    }
    return quantityText(c.getResources().getRequests().get("storage"));
  }

  private static List<StorageVolume> storageVolumesOf(MemberSpec m) {
    if (m instanceof PdSpec s) {
      return s.getStorageVolumes();
    } else if (m instanceof PdMsSpec s) {
      return s.getStorageVolumes();
    } else if (m instanceof TikvSpec s) {
      return s.getStorageVolumes();
    } else if (m instanceof TidbSpec s) {
      return s.getStorageVolumes();
    } else if (m instanceof TicdcSpec s) {
      return s.getStorageVolumes();
    } else if (m instanceof TiproxySpec s) {
      return s.getStorageVolumes();
    }
    return null;
  }

  private static void checkNoShrink(String path, String oldSize, String newSize, List<Violation> out) {
    if (!isQuantity(oldSize) || !isQuantity(newSize)) {
      return;
    }
    java.math.BigDecimal before = Quantity.getAmountInBytes(new Quantity(oldSize));
    java.math.BigDecimal after = Quantity.getAmountInBytes(new Quantity(newSize));
    if (after.compareTo(before) < 0) {
      out.add(Violation.invalid(path, newSize,
          "volume shrinking is not supported (was \"" + oldSize + "\"); only a larger size can be applied"));
    }
  }

  private static MemberSpec core(TidbClusterSpec spec, String name) {
    return switch (name) {
      case "pd" -> spec.getPd();
      case "tikv" -> spec.getTikv();
      default -> spec.getTidb();
    };
  }

  // ---------------------------------------------------------------- helpers

  private static Optional<JsonNode> tree(ComponentConfig config) {
    try {
      return Optional.of(config.tree());
    } catch (InvalidConfigException e) {
      return Optional.empty();
    }
  }

  private static String label(TidbCluster tc, String key) {
    if (tc.getMetadata() == null || tc.getMetadata().getLabels() == null) {
      return null;
    }
    return tc.getMetadata().getLabels().get(key);
  }

  private static String describe(String value) {
    return value == null ? "unset" : '"' + value + '"';
  }

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }
}
