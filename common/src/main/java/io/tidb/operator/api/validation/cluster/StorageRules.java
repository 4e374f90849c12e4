package io.tidb.operator.api.validation.cluster;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.tidb.operator.api.v1alpha1.cluster.ComponentSpec;
import io.tidb.operator.api.v1alpha1.cluster.Components.Member;
import io.tidb.operator.api.v1alpha1.cluster.Components;
import io.tidb.operator.api.v1alpha1.cluster.ContainerResources;
import io.tidb.operator.api.v1alpha1.cluster.MemberSpec;
import io.tidb.operator.api.v1alpha1.cluster.PdMsSpec;
import io.tidb.operator.api.v1alpha1.cluster.PdSpec;
import io.tidb.operator.api.v1alpha1.cluster.StorageClaim;
import io.tidb.operator.api.v1alpha1.cluster.StorageVolume;
import io.tidb.operator.api.v1alpha1.cluster.TicdcSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbSpec;
import io.tidb.operator.api.v1alpha1.cluster.TiflashSpec;
import io.tidb.operator.api.v1alpha1.cluster.TikvSpec;
import io.tidb.operator.api.v1alpha1.cluster.TiproxySpec;
import io.tidb.operator.api.validation.Violation;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * TidbCluster storage rules: sizes are quantities and present where a component needs them,
 * storage volumes are named, log volume names point at a volume, data sub-directories stay inside
 * the data volume, and (on update) no volume shrinks.
 */
public final class StorageRules {

  /** The one-letter decimal SI suffixes (nano to exa) of Kubernetes' quantity grammar. */
  private static final String DECIMAL_SUFFIXES = "numkMGTPE";

  /** The letters of the binary suffixes Ki, Mi, Gi, Ti, Pi, Ei. */
  private static final String BINARY_SUFFIXES = "KMGTPE";

  private StorageRules() {}

  static void validateQuantities(String path, Map<String, Quantity> quantities, List<Violation> out) {
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

  static String quantityText(Quantity q) {
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

  /**
   * Whether {@code text} is a Kubernetes quantity such as 500m, 4Gi or 100G, as the API server's
   * parser takes it: an optional sign, a decimal number ({@code 5}, {@code 5.}, {@code 5.25} or
   * {@code .25}), then at most one suffix: binary ({@code Ki} to {@code Ei}), decimal ({@code n}
   * to {@code E}) or a whole decimal exponent ({@code e3}, {@code E-3}; the CRD's pattern would let
   * {@code 1e.5} through, which the API server then cannot read). Read by hand, not by a regular
   * expression: every component's requests and limits are checked on every admission review,
   * and a matcher's allocations were 6 % of a validate's.
   */
  public static boolean isQuantity(String text) {
    if (text == null) {
      return false;
    }
    int n = text.length();
    int i = 0;
    if (i < n && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
      i++;
    }
    int whole = digits(text, i);
    i += whole;
    int fraction = 0;
    if (i < n && text.charAt(i) == '.') {
      fraction = digits(text, i + 1);
      i += 1 + fraction;
    }
    if (whole == 0 && fraction == 0) {
      return false;
    }
    if (i == n) {
      return true;
    }
    char suffix = text.charAt(i);
    if (i + 2 == n && text.charAt(i + 1) == 'i') {
      return BINARY_SUFFIXES.indexOf(suffix) >= 0;
    }
    if (i + 1 == n && DECIMAL_SUFFIXES.indexOf(suffix) >= 0) {
      return true;
    }
    if (suffix != 'e' && suffix != 'E') {
      return false;
    }
    int exponent = i + 1;
    if (exponent < n && (text.charAt(exponent) == '+' || text.charAt(exponent) == '-')) {
      exponent++;
    }
    int exponentDigits = digits(text, exponent);
    return exponentDigits > 0 && exponent + exponentDigits == n;
  }

  /** How many ASCII digits {@code text} has from {@code from} on. */
  private static int digits(String text, int from) {
    int i = from;
    while (i < text.length() && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
      i++;
    }
    return i - from;
  }

  static void requireStorage(String path, ContainerResources r, List<Violation> out) {
    Quantity storage = r.getRequests() == null ? null : r.getRequests().get("storage");
    if (storage == null) {
      out.add(Violation.required(path + ".requests.storage", "the data volume size is required"));
    }
  }

  static void validateStorageVolumes(String path, List<StorageVolume> volumes, List<Violation> out) {
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

  static void validateStorageClaims(List<StorageClaim> claims, List<Violation> out) {
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

  static void validateDataSubDir(String path, String dir, List<Violation> out) {
    if (isEmpty(dir)) {
      return;
    }
    boolean escapes = List.of(dir.split("/", -1)).contains("..");
    if (dir.startsWith("/") || escapes) {
      out.add(Violation.invalid(path, dir, "must be a relative path without '..'"));
    }
  }

  /**
   * A log volume name (checked only when that log is kept separately, as only then is it used)
   * must name a {@code storageVolumes} entry, or an {@code additionalVolumes} entry that an {@code
   * additionalVolumeMounts} entry mounts.
   */
  static void validateLogVolumeName(String componentPath, String field, boolean separate, String name,
      List<StorageVolume> volumes, ComponentSpec component, List<Violation> out) {
    if (!separate || isEmpty(name)) {
      return;
    }
    List<String> storageNames = volumes == null ? List.of() : volumes.stream().filter(Objects::nonNull)
        .map(StorageVolume::getName).filter(Objects::nonNull).toList();
    List<String> mounted = mountedAdditionalVolumes(component);
    if (!storageNames.contains(name) && !mounted.contains(name)) {
      out.add(Violation.invalid(componentPath + "." + field, name,
          "must name one of " + componentPath + ".storageVolumes: " + storageNames
              + ", or one of " + componentPath + ".additionalVolumes that "
              + componentPath + ".additionalVolumeMounts mounts: " + mounted));
    }
  }

  private static List<String> mountedAdditionalVolumes(ComponentSpec component) {
    List<Volume> volumes = component.getAdditionalVolumes();
    List<VolumeMount> mounts = component.getAdditionalVolumeMounts();
    if (volumes == null || mounts == null) {
      return List.of();
    }
    List<String> mountNames = mounts.stream().filter(Objects::nonNull).map(VolumeMount::getName)
        .filter(Objects::nonNull).toList();
    return volumes.stream().filter(Objects::nonNull).map(Volume::getName)
        .filter(n -> n != null && mountNames.contains(n)).toList();
  }

  /**
   * A volume's size may grow (the operator expands the existing claims) but never shrink:
   * Kubernetes cannot shrink a PersistentVolumeClaim, so the change could never be carried out.
   * Compared: every component's {@code requests.storage}, its {@code storageVolumes} by name and
   * TiFlash's {@code storageClaims} by index. Sizes that do not parse are reported by the
   * always-checked rules; a volume that is added or removed is not compared.
   */
  static void validateNoShrink(TidbClusterSpec oldSpec, TidbClusterSpec spec, List<Violation> out) {
    Map<String, MemberSpec> before = new LinkedHashMap<>();
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
    BigDecimal before = Quantity.getAmountInBytes(new Quantity(oldSize));
    BigDecimal after = Quantity.getAmountInBytes(new Quantity(newSize));
    if (after.compareTo(before) < 0) {
      out.add(Violation.invalid(path, newSize,
          "volume shrinking is not supported (was \"" + oldSize + "\"); only a larger size can be applied"));
    }
  }

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }
}
