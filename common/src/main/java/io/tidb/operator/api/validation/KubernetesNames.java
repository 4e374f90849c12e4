package io.tidb.operator.api.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The syntax rules Kubernetes applies to names and keys (those of {@code
 * k8s.io/apimachinery/pkg/util/validation}), each returning what is wrong with a value in plain
 * words; an empty list means the value is fine. Written out so that admission reports them before
 * the API server refuses the StatefulSet or Pod the operator would build from them.
 */
public final class KubernetesNames {

  /** Longest DNS-1123 subdomain (object names such as a ConfigMap's or a Secret's). */
  public static final int DNS1123_SUBDOMAIN_MAX = 253;

  /** Longest ConfigMap or Secret key. */
  public static final int CONFIG_MAP_KEY_MAX = 253;

  /** Longest name part of a qualified name (label and annotation keys). */
  public static final int QUALIFIED_NAME_MAX = 63;

  private static final Pattern ENV_VAR_NAME = Pattern.compile("[-._a-zA-Z][-._a-zA-Z0-9]*");
  private static final Pattern CONFIG_MAP_KEY = Pattern.compile("[-._a-zA-Z0-9]+");
  private static final Pattern DNS1123_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final Pattern QUALIFIED_NAME_PART =
      Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");

  private KubernetesNames() {}

  /** An environment variable name: letters, digits, '_', '-' and '.', not starting with a digit. */
  public static List<String> envVarNameProblems(String value) {
    List<String> out = new ArrayList<>();
    if (!ENV_VAR_NAME.matcher(value).matches()) {
      out.add("must consist of letters, digits, '_', '-' or '.' and must not start with a digit,"
          + " e.g. MY_ENV.NAME");
    }
    out.addAll(dotPrefixProblems(value));
    return out;
  }

  /** A ConfigMap or Secret key: letters, digits, '_', '-' and '.', at most 253 characters. */
  public static List<String> configMapKeyProblems(String value) {
    List<String> out = new ArrayList<>();
    if (value.length() > CONFIG_MAP_KEY_MAX) {
      out.add("must be no more than " + CONFIG_MAP_KEY_MAX + " characters");
    }
    if (!CONFIG_MAP_KEY.matcher(value).matches()) {
      out.add("must consist of letters, digits, '_', '-' or '.', e.g. key.name or KEY_NAME");
    }
    out.addAll(dotPrefixProblems(value));
    return out;
  }

  /**
   * A lowercase RFC 1123 subdomain such as an object name: lower-case letters, digits, '-' and '.',
   * starting and ending with a letter or digit, at most 253 characters.
   */
  public static List<String> dns1123SubdomainProblems(String value) {
    List<String> out = new ArrayList<>();
    if (value.length() > DNS1123_SUBDOMAIN_MAX) {
      out.add("must be no more than " + DNS1123_SUBDOMAIN_MAX + " characters");
    }
    if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
      out.add("must be a lowercase RFC 1123 subdomain: lower-case letters, digits, '-' or '.',"
          + " starting and ending with a letter or digit, e.g. my-name or example.com");
    }
    return out;
  }

  /**
   * A qualified name such as a label or annotation key: an optional DNS subdomain prefix and '/',
   * then a name of at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter
   * or digit.
   */
  public static List<String> qualifiedNameProblems(String value) {
    List<String> out = new ArrayList<>();
    String[] parts = value.split("/", -1);
    String name;
    if (parts.length == 1) {
      name = parts[0];
    } else if (parts.length == 2) {
      String prefix = parts[0];
      name = parts[1];
      if (prefix.isEmpty()) {
        out.add("prefix part must not be empty");
      } else {
        for (String problem : dns1123SubdomainProblems(prefix)) {
          out.add("prefix part " + problem);
        }
      }
    } else {
      out.add("must be a name with at most one '/': an optional DNS subdomain prefix and '/', then"
          + " letters, digits, '-', '_' or '.', e.g. example.com/MyName");
      return out;
    }
    if (name.isEmpty()) {
      out.add("name part must not be empty");
      return out;
    }
    if (name.length() > QUALIFIED_NAME_MAX) {
      out.add("name part must be no more than " + QUALIFIED_NAME_MAX + " characters");
    }
    if (!QUALIFIED_NAME_PART.matcher(name).matches()) {
      out.add("name part must consist of letters, digits, '-', '_' or '.' and must start and end"
          + " with a letter or digit, e.g. MyName or my.name");
    }
    return out;
  }

  private static List<String> dotPrefixProblems(String value) {
    if (value.equals(".")) {
      return List.of("must not be '.'");
    } else if (value.equals("..")) {
      return List.of("must not be '..'");
    } else if (value.startsWith("..")) {
      return List.of("must not start with '..'");
    }
    return List.of();
  }
}
