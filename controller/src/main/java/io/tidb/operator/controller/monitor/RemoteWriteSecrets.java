package io.tidb.operator.controller.monitor;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapKeySelector;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.tidb.operator.api.v1alpha1.monitor.BasicAuth;
import io.tidb.operator.api.v1alpha1.monitor.RemoteWriteSpec;
import io.tidb.operator.api.v1alpha1.monitor.SecretOrConfigMap;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.api.v1alpha1.monitor.TlsConfig;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The credentials of {@code spec.prometheus.remoteWrite[*]} that live in Secrets and ConfigMaps
 * of the monitor's namespace ({@code basicAuth}, {@code tlsConfig.ca}, {@code .cert}, {@code
 * .keySecret}), copied into the monitor's assets Secret, which the Prometheus container mounts at
 * {@link PrometheusConfigGenerator#TLS_ASSETS_PATH}. The configuration points at the files ({@code
 * password_file}, {@code ca_file}, ...), so no password is written into a ConfigMap (upstream
 * writes it in clear into the configuration). A remote write whose Secret or key is missing is left
 * out of the configuration, with a problem that names it, rather than sent without its
 * credentials.
 */
public final class RemoteWriteSecrets {

  /** What was copied: the assets (Secret data, base64) and the remote writes left out. */
  public record Copied(Map<String, String> assets, Set<Integer> incomplete, Map<Integer, String> usernames) {

    public static final Copied NONE = new Copied(Map.of(), Set.of(), Map.of());

    public Copied {
      assets = Map.copyOf(assets);
      incomplete = Set.copyOf(incomplete);
      usernames = Map.copyOf(usernames);
    }
  }

  /** Which credential of a remote write a file holds. */
  enum Item {
    USERNAME("username"),
    PASSWORD("password"),
    CA("ca.crt"),
    CERT("tls.crt"),
    KEY("tls.key");

    final String suffix;

    Item(String suffix) {
      this.suffix = suffix;
    }
  }

  private RemoteWriteSecrets() {}

  /** The key in the assets Secret of one remote write's credential. */
  static String assetKey(int index, Item item) {
    return "remoteWrite_" + index + "_" + item.suffix;
  }

  /** The path Prometheus reads one remote write's credential from. */
  static String file(int index, Item item) {
    return PrometheusConfigGenerator.TLS_ASSETS_PATH + "/" + assetKey(index, item);
  }

  /** Whether the remote write names a credential for {@code item} in a Secret or ConfigMap. */
  static boolean referenced(RemoteWriteSpec rw, Item item) {
    BasicAuth auth = rw.getBasicAuth();
    TlsConfig tls = rw.getTlsConfig();
    return switch (item) {
      case USERNAME -> auth != null && auth.getUsername() != null;
      case PASSWORD -> auth != null && auth.getPassword() != null;
      case CA -> tls != null && tls.getCa() != null;
      case CERT -> tls != null && tls.getCert() != null;
      case KEY -> tls != null && tls.getKeySecret() != null;
    };
  }

  /**
   * Copies every referenced credential.
   *
   * @param usernameFile whether the Prometheus version reads {@code username_file} (2.49 on);
   *     older ones get the user name written into the configuration, as upstream does
   */
  public static Copied copy(TidbMonitor tm, MonitorReads reads, boolean usernameFile, List<String> problems) {
    List<RemoteWriteSpec> specs = tm.getSpec().getPrometheus() == null
        ? null : tm.getSpec().getPrometheus().getRemoteWrite();
    if (specs == null || specs.isEmpty()) {
      return Copied.NONE;
    }
    String ns = tm.getMetadata().getNamespace();
    Map<String, String> assets = new LinkedHashMap<>();
    Set<Integer> incomplete = new TreeSet<>();
    Map<Integer, String> usernames = new LinkedHashMap<>();
    for (int i = 0; i < specs.size(); i++) {
      RemoteWriteSpec rw = specs.get(i);
      String field = "spec.prometheus.remoteWrite[" + i + "]";
      for (Item item : Item.values()) {
        if (!referenced(rw, item)) {
          continue;
        }
        Optional<String> base64 = read(rw, item, ns, reads, field, problems);
        if (base64.isEmpty()) {
          incomplete.add(i);
        } else if (item == Item.USERNAME && !usernameFile) {
          usernames.put(i, new String(Base64.getDecoder().decode(base64.get()), StandardCharsets.UTF_8));
        } else {
          assets.put(assetKey(i, item), base64.get());
        }
      }
    }
    return new Copied(assets, incomplete, usernames);
  }

  /** The credential as Secret data (base64), or empty with a problem naming the field. */
  private static Optional<String> read(RemoteWriteSpec rw, Item item, String ns, MonitorReads reads,
      String field, List<String> problems) {
    return switch (item) {
      case USERNAME -> secretKey(rw.getBasicAuth().getUsername(), ns, reads, field + ".basicAuth.username", problems);
      case PASSWORD -> secretKey(rw.getBasicAuth().getPassword(), ns, reads, field + ".basicAuth.password", problems);
      case CA -> either(rw.getTlsConfig().getCa(), ns, reads, field + ".tlsConfig.ca", problems);
      case CERT -> either(rw.getTlsConfig().getCert(), ns, reads, field + ".tlsConfig.cert", problems);
      case KEY -> secretKey(rw.getTlsConfig().getKeySecret(), ns, reads, field + ".tlsConfig.keySecret", problems);
    };
  }

  private static Optional<String> either(SecretOrConfigMap ref, String ns, MonitorReads reads, String field,
      List<String> problems) {
    if (ref.getSecret() != null) {
      return secretKey(ref.getSecret(), ns, reads, field + ".secret", problems);
    }
    if (ref.getConfigMap() != null) {
      return configMapKey(ref.getConfigMap(), ns, reads, field + ".configMap", problems);
    }
    problems.add(field + " names neither a Secret nor a ConfigMap; remote write left out");
    return Optional.empty();
  }

  private static Optional<String> secretKey(SecretKeySelector ref, String ns, MonitorReads reads, String field,
      List<String> problems) {
    Optional<Secret> secret = ref.getName() == null ? Optional.empty() : reads.secret(ns, ref.getName());
    Optional<String> value = secret.map(Secret::getData).map(d -> d.get(ref.getKey()));
    if (value.isEmpty()) {
      problems.add(field + ": " + (secret.isEmpty() ? "Secret " + ns + "/" + ref.getName() + " not found"
          : "Secret " + ns + "/" + ref.getName() + " has no key " + ref.getKey()) + "; remote write left out");
    }
    return value;
  }

  private static Optional<String> configMapKey(ConfigMapKeySelector ref, String ns, MonitorReads reads,
      String field, List<String> problems) {
    Optional<ConfigMap> cm = ref.getName() == null ? Optional.empty() : reads.configMap(ns, ref.getName());
    Optional<String> value = cm.map(ConfigMap::getData).map(d -> d.get(ref.getKey()));
    if (value.isEmpty()) {
      problems.add(field + ": " + (cm.isEmpty() ? "ConfigMap " + ns + "/" + ref.getName() + " not found"
          : "ConfigMap " + ns + "/" + ref.getName() + " has no key " + ref.getKey()) + "; remote write left out");
    }
    return value.map(v -> Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8)));
  }
}
