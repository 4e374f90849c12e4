package io.tidb.operator.controller.initializer;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializerSpec;
import io.tidb.operator.api.validation.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The rules on the objects a TidbInitializer names, which admission cannot check: the TidbCluster
 * exists and has TiDB, the passwordSecret exists and has the key {@code root}, the
 * initSqlConfigMap exists and has the key {@code init-sql}. Every violation at once. The objects
 * may still be on their way (a cluster and its initializer are often created together), so a
 * violation keeps the initializer Pending and is checked again; it never fails it.
 */
public final class InitializerReferences {

  private InitializerReferences() {}

  public static List<Violation> check(
      String namespace,
      TidbInitializerSpec spec,
      Optional<TidbCluster> cluster,
      Optional<Secret> passwordSecret,
      Optional<ConfigMap> sqlConfigMap) {
    List<Violation> out = new ArrayList<>();
    String name = spec.getCluster().getName();
    if (cluster.isEmpty()) {
      out.add(notFound("spec.cluster.name", name, "no TidbCluster " + name + " in namespace " + namespace));
    } else if (cluster.get().getSpec() == null || cluster.get().getSpec().getTidb() == null) {
      out.add(
          Violation.invalid(
              "spec.cluster.name", name, "TidbCluster " + name + " has no spec.tidb: there is no TiDB to initialise"));
    }
    if (spec.getPasswordSecret() != null) {
      String secret = spec.getPasswordSecret();
      if (passwordSecret.isEmpty()) {
        out.add(notFound("spec.passwordSecret", secret, "no Secret " + secret + " in namespace " + namespace));
      } else if (!keys(passwordSecret.get()).contains(InitializerJob.ROOT_KEY)) {
        out.add(
            Violation.invalid(
                "spec.passwordSecret",
                secret,
                "Secret " + secret + " has no key \"" + InitializerJob.ROOT_KEY
                    + "\" (root's password); keys: " + keys(passwordSecret.get())));
      }
    }
    if (spec.getInitSqlConfigMap() != null) {
      String cm = spec.getInitSqlConfigMap();
      if (sqlConfigMap.isEmpty()) {
        out.add(notFound("spec.initSqlConfigMap", cm, "no ConfigMap " + cm + " in namespace " + namespace));
      } else {
        Map<String, String> data = sqlConfigMap.get().getData();
        if (data == null || !data.containsKey(InitializerJob.SQL_KEY)) {
          out.add(
              Violation.invalid(
                  "spec.initSqlConfigMap",
                  cm,
                  "ConfigMap " + cm + " has no key \"" + InitializerJob.SQL_KEY + "\" (the SQL to run); keys: "
                      + (data == null ? List.of() : List.copyOf(new java.util.TreeSet<>(data.keySet())))));
        }
      }
    }
    return out;
  }

  /** The Secret's key names, sorted; never its values. */
  public static List<String> keys(Secret secret) {
    java.util.TreeSet<String> keys = new java.util.TreeSet<>();
    if (secret.getData() != null) {
      keys.addAll(secret.getData().keySet());
    }
    if (secret.getStringData() != null) {
      keys.addAll(secret.getStringData().keySet());
    }
    return List.copyOf(keys);
  }

  /** The passwordSecret's keys other than root: the users to create, sorted. */
  public static List<String> users(Optional<Secret> secret) {
    return secret.map(InitializerReferences::keys).orElse(List.of()).stream()
        .filter(k -> !InitializerJob.ROOT_KEY.equals(k))
        .toList();
  }

  private static Violation notFound(String field, String value, String detail) {
    return Violation.invalid(field, value, detail);
  }
}
