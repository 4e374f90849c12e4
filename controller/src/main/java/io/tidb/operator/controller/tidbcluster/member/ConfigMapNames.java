package io.tidb.operator.controller.tidbcluster.member;

import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Names a component's ConfigMap according to {@code spec.configUpdateStrategy}.
 *
 * <ul>
 *   <li><b>InPlace</b>: the name stays {@code <cluster>-<component>} (or whatever name the running
 *       StatefulSet already mounts), so a config change rewrites the ConfigMap in place and no pod
 *       restarts; the new config takes effect when a pod next restarts.
 *   <li><b>RollingUpdate</b>: the name is {@code <cluster>-<component>-<digest>}, where the digest is
 *       the first {@value #DIGEST_LENGTH} hex digits of the SHA-256 of the data. A config change yields
 *       a new name, the pod template's volumes change with it, and the StatefulSet rolls its pods.
 *       The old ConfigMap is left for garbage collection through its owner reference.
 * </ul>
 */
public final class ConfigMapNames {
  /** Hex digits of the SHA-256 kept in a RollingUpdate ConfigMap name. */
  public static final int DIGEST_LENGTH = 8;

  /** The pod volume that mounts a component's config file; its ConfigMap name is the one in use. */
  public static final String CONFIG_VOLUME = "config";

  private ConfigMapNames() {}

  /**
   * The first {@value #DIGEST_LENGTH} hex digits of the SHA-256 over the data, taken in key order,
   * each key and value followed by a NUL byte. Equal data always gives the same digest, whatever the
   * map's iteration order.
   */
  public static String digest(Map<String, String> data) {
    MessageDigest sha256;
    try {
      sha256 = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK must provide SHA-256", e);
    }
    for (Map.Entry<String, String> e : new TreeMap<>(data).entrySet()) {
      sha256.update(e.getKey().getBytes(StandardCharsets.UTF_8));
      sha256.update((byte) 0);
      sha256.update(e.getValue().getBytes(StandardCharsets.UTF_8));
      sha256.update((byte) 0);
    }
    return HexFormat.of().formatHex(sha256.digest()).substring(0, DIGEST_LENGTH);
  }

  /**
   * The ConfigMap name for a component.
   *
   * @param rollingUpdate true for {@code configUpdateStrategy: RollingUpdate}
   * @param inUse the name the existing StatefulSet mounts (see {@link #inUse}); with InPlace it is
   *     kept so that switching strategy from RollingUpdate to InPlace restarts nothing
   */
  public static String name(
      String cluster, Component component, boolean rollingUpdate, Map<String, String> data,
      Optional<String> inUse) {
    String base = Names.member(cluster, component);
    if (rollingUpdate) {
      return base + "-" + digest(data);
    }
    return inUse.filter(n -> n.equals(base) || n.startsWith(base + "-")).orElse(base);
  }

  /** The ConfigMap name an existing StatefulSet mounts as its config volume, if any. */
  public static Optional<String> inUse(StatefulSet existing) {
    if (existing == null || existing.getSpec() == null || existing.getSpec().getTemplate() == null
        || existing.getSpec().getTemplate().getSpec() == null
        || existing.getSpec().getTemplate().getSpec().getVolumes() == null) {
      return Optional.empty();
    }
    for (Volume v : existing.getSpec().getTemplate().getSpec().getVolumes()) {
      if (CONFIG_VOLUME.equals(v.getName()) && v.getConfigMap() != null) {
        return Optional.ofNullable(v.getConfigMap().getName());
      }
    }
    return Optional.empty();
  }
}
