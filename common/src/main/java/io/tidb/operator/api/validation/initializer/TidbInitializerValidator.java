package io.tidb.operator.api.validation.initializer;

import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializer;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializerSpec;
import io.tidb.operator.api.validation.Violation;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules a TidbInitializer's spec must satisfy on its own, every violation at once. What needs
 * other objects (the TidbCluster, the Secret's keys, the ConfigMap's key) the controller checks in
 * {@code InitializerReferences}, since admission sees only this object.
 */
public final class TidbInitializerValidator {

  /** Kubernetes object names (DNS-1123 subdomain). */
  private static final Pattern SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  private static final Set<String> PULL_POLICIES = Set.of("Always", "IfNotPresent", "Never");

  /** MySQL's limit on the host part of an account name. */
  static final int MAX_HOST_LENGTH = 255;

  private TidbInitializerValidator() {}

  public static List<Violation> validate(TidbInitializer ti) {
    List<Violation> out = new ArrayList<>();
    TidbInitializerSpec spec = ti.getSpec();
    if (spec == null) {
      out.add(Violation.required("spec", "a TidbInitializer needs spec.cluster and spec.image"));
      return out;
    }
    if (blank(spec.getImage())) {
      out.add(Violation.required("spec.image", "upstream requires an image (this operator runs its own)"));
    }
    if (spec.getCluster() == null || blank(spec.getCluster().getName())) {
      out.add(Violation.required("spec.cluster.name", "the name of the TidbCluster to initialise"));
    } else {
      name("spec.cluster.name", spec.getCluster().getName(), out);
      String ns = spec.getCluster().getNamespace();
      String own = ti.getMetadata() == null ? null : ti.getMetadata().getNamespace();
      if (!blank(ns) && own != null && !ns.equals(own)) {
        out.add(
            Violation.notSupported(
                "spec.cluster.namespace",
                ns,
                "must be empty or \"" + own + "\": the TidbCluster must be in the TidbInitializer's"
                    + " namespace"));
      }
    }
    optionalName("spec.passwordSecret", spec.getPasswordSecret(), out);
    optionalName("spec.initSqlConfigMap", spec.getInitSqlConfigMap(), out);
    optionalName("spec.tlsClientSecretName", spec.getTlsClientSecretName(), out);
    optionalName("spec.serviceAccountName", spec.getServiceAccountName(), out);
    if (spec.getImagePullPolicy() != null && !PULL_POLICIES.contains(spec.getImagePullPolicy())) {
      out.add(
          Violation.notSupported(
              "spec.imagePullPolicy",
              spec.getImagePullPolicy(),
              "supported values: \"Always\", \"IfNotPresent\", \"Never\""));
    }
    List<LocalObjectReference> pullSecrets = spec.getImagePullSecrets();
    if (pullSecrets != null) {
      for (int i = 0; i < pullSecrets.size(); i++) {
        LocalObjectReference ref = pullSecrets.get(i);
        String path = "spec.imagePullSecrets[" + i + "].name";
        if (ref == null || blank(ref.getName())) {
          out.add(Violation.required(path, "the name of a Secret"));
        } else {
          name(path, ref.getName(), out);
        }
      }
    }
    if (spec.getPermitHost() != null) {
      String host = spec.getPermitHost();
      if (host.isBlank()) {
        out.add(Violation.invalid("spec.permitHost", host, "must not be empty; unset means % (any host)"));
      } else if (host.length() > MAX_HOST_LENGTH) {
        out.add(
            Violation.invalid(
                "spec.permitHost",
                host.substring(0, 20) + "...",
                "must be at most " + MAX_HOST_LENGTH + " characters"));
      }
    }
    if (spec.getTimezone() != null && !spec.getTimezone().isEmpty()) {
      try {
        ZoneId.of(spec.getTimezone());
      } catch (DateTimeException e) {
        out.add(
            Violation.invalid(
                "spec.timezone",
                spec.getTimezone(),
                "must be a time zone name such as UTC or Asia/Shanghai"));
      }
    }
    if (spec.getInitSql() != null && spec.getInitSql().isBlank() && spec.getInitSqlConfigMap() == null) {
      out.add(Violation.invalid("spec.initSql", spec.getInitSql(), "must hold at least one statement, or be unset"));
    }
    return out;
  }

  /** Warnings: fields accepted for upstream compatibility that change nothing here. */
  public static List<String> warnings(TidbInitializer ti) {
    List<String> out = new ArrayList<>();
    TidbInitializerSpec spec = ti.getSpec();
    if (spec == null) {
      return out;
    }
    if (spec.getInitSql() != null && spec.getInitSqlConfigMap() != null) {
      out.add("spec.initSql is ignored: spec.initSqlConfigMap takes precedence, as upstream");
    }
    return out;
  }

  private static void optionalName(String path, String value, List<Violation> out) {
    if (value != null) {
      name(path, value, out);
    }
  }

  private static void name(String path, String value, List<Violation> out) {
    if (value.length() > 253 || !SUBDOMAIN.matcher(value).matches()) {
      out.add(
          Violation.invalid(
              path,
              value,
              "must be a Kubernetes object name: lower-case letters, digits, '-' and '.', starting"
                  + " and ending with a letter or digit, at most 253 characters"));
    }
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
