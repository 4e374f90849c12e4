package io.tidb.operator.api.validation;

import io.fabric8.kubernetes.api.model.ConfigMapKeySelector;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.ObjectFieldSelector;
import io.fabric8.kubernetes.api.model.ResourceFieldSelector;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rules for a container's {@code env} list: every variable has a valid name; a {@code
 * valueFrom} has no {@code value} beside it and names exactly one source, and that source is
 * complete and well-formed (ConfigMap and Secret names are DNS subdomains, keys are valid keys,
 * field and resource references name something the kubelet can expose).
 */
public final class EnvVarRules {

  /** Pod fields an environment variable can reference through {@code fieldRef.fieldPath}. */
  public static final List<String> FIELD_PATHS = List.of("metadata.name", "metadata.namespace",
      "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP",
      "status.hostIPs", "status.podIP", "status.podIPs");

  /** Container resources an environment variable can reference through {@code resourceFieldRef}. */
  public static final List<String> RESOURCES = List.of("limits.cpu", "limits.memory",
      "limits.ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage");

  private static final Pattern SUBSCRIPTED_FIELD =
      Pattern.compile("metadata\\.(labels|annotations)\\['(.*)'\\]");

  private EnvVarRules() {}

  /** Checks {@code env} (a list at {@code path}, e.g. {@code spec.pd.env}); adds to {@code out}. */
  public static void validate(String path, List<EnvVar> env, List<Violation> out) {
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
      validateName(epath + ".name", e.getName(), out);
      if (e.getValueFrom() != null) {
        validateValueFrom(epath + ".valueFrom", e, out);
      }
    }
  }

  private static void validateName(String path, String name, List<Violation> out) {
    if (isEmpty(name)) {
      out.add(Violation.required(path, "must not be empty"));
      return;
    }
    for (String problem : KubernetesNames.envVarNameProblems(name)) {
      out.add(Violation.invalid(path, name, problem));
    }
  }

  private static void validateValueFrom(String fpath, EnvVar e, List<Violation> out) {
    EnvVarSource from = e.getValueFrom();
    if (!isEmpty(e.getValue())) {
      out.add(Violation.invalid(fpath, "", "may not be specified when `value` is not empty"));
    }
    int sources = 0;
    if (from.getFieldRef() != null) {
      sources++;
      validateFieldRef(fpath + ".fieldRef", from.getFieldRef(), out);
    }
    if (from.getResourceFieldRef() != null) {
      sources++;
      validateResourceFieldRef(fpath + ".resourceFieldRef", from.getResourceFieldRef(), out);
    }
    if (from.getConfigMapKeyRef() != null) {
      sources++;
      ConfigMapKeySelector ref = from.getConfigMapKeyRef();
      validateKeyRef(fpath + ".configMapKeyRef", ref.getName(), ref.getKey(), out);
    }
    if (from.getSecretKeyRef() != null) {
      sources++;
      SecretKeySelector ref = from.getSecretKeyRef();
      validateKeyRef(fpath + ".secretKeyRef", ref.getName(), ref.getKey(), out);
    }
    if (sources == 0) {
      out.add(Violation.invalid(fpath, "",
          "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"));
    } else if (sources > 1) {
      out.add(Violation.invalid(fpath, "", "may not have more than one field specified at a time"));
    }
  }

  private static void validateFieldRef(String path, ObjectFieldSelector ref, List<Violation> out) {
    if (!isEmpty(ref.getApiVersion()) && !"v1".equals(ref.getApiVersion())) {
      out.add(Violation.notSupported(path + ".apiVersion", ref.getApiVersion(), "supported values: v1"));
    }
    String fieldPath = ref.getFieldPath();
    if (isEmpty(fieldPath)) {
      out.add(Violation.required(path + ".fieldPath", "must not be empty"));
      return;
    }
    Matcher subscripted = SUBSCRIPTED_FIELD.matcher(fieldPath);
    if (subscripted.matches()) {
      String key = subscripted.group(2);
      if ("annotations".equals(subscripted.group(1))) {
        key = key.toLowerCase(Locale.ROOT);
      }
      for (String problem : KubernetesNames.qualifiedNameProblems(key)) {
        out.add(Violation.invalid(path + ".fieldPath", fieldPath, "the key in brackets " + problem));
      }
    } else if (!FIELD_PATHS.contains(fieldPath)) {
      out.add(Violation.notSupported(path + ".fieldPath", fieldPath, "supported values: "
          + String.join(", ", FIELD_PATHS) + ", metadata.labels['<key>'], metadata.annotations['<key>']"));
    }
  }

  private static void validateResourceFieldRef(String path, ResourceFieldSelector ref, List<Violation> out) {
    String resource = ref.getResource();
    if (isEmpty(resource)) {
      out.add(Violation.required(path + ".resource", "must not be empty"));
    } else if (!RESOURCES.contains(resource)
        && !resource.startsWith("limits.hugepages-") && !resource.startsWith("requests.hugepages-")) {
      out.add(Violation.notSupported(path + ".resource", resource, "supported values: "
          + String.join(", ", RESOURCES) + ", limits.hugepages-<size>, requests.hugepages-<size>"));
    }
  }

  private static void validateKeyRef(String path, String name, String key, List<Violation> out) {
    if (isEmpty(key)) {
      out.add(Violation.required(path + ".key", "must not be empty"));
    } else {
      for (String problem : KubernetesNames.configMapKeyProblems(key)) {
        out.add(Violation.invalid(path + ".key", key, problem));
      }
    }
    if (isEmpty(name)) {
      out.add(Violation.required(path + ".name", "must not be empty"));
    } else {
      for (String problem : KubernetesNames.dns1123SubdomainProblems(name)) {
        out.add(Violation.invalid(path + ".name", name, problem));
      }
    }
  }

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }
}
