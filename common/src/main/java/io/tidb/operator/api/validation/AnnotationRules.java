package io.tidb.operator.api.validation;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kubernetes' rules for {@code metadata.annotations}: every key is a qualified name (case does not
 * matter) and keys and values together are at most 256 KiB.
 */
public final class AnnotationRules {

  /** Most bytes all annotation keys and values of one object may hold together. */
  public static final int TOTAL_SIZE_LIMIT = 256 * 1024;

  private AnnotationRules() {}

  /** Checks {@code annotations} (at {@code path}, e.g. {@code metadata.annotations}). */
  public static void validate(String path, Map<String, String> annotations, List<Violation> out) {
    if (annotations == null) {
      return;
    }
    long size = 0;
    for (Map.Entry<String, String> e : new TreeMap<>(annotations).entrySet()) {
      String key = e.getKey();
      for (String problem : KubernetesNames.qualifiedNameProblems(key.toLowerCase(Locale.ROOT))) {
        out.add(Violation.invalid(path, key, "annotation key " + problem));
      }
      size += key.getBytes(StandardCharsets.UTF_8).length;
      size += e.getValue() == null ? 0 : e.getValue().getBytes(StandardCharsets.UTF_8).length;
    }
    if (size > TOTAL_SIZE_LIMIT) {
      out.add(Violation.invalid(path, size + " bytes",
          "keys and values together must have at most " + TOTAL_SIZE_LIMIT + " bytes"));
    }
  }
}
