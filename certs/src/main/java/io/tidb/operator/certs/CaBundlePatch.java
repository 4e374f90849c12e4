package io.tidb.operator.certs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The JSON Patch that sets {@code clientConfig.caBundle} on every webhook entry of one
 * Validating- or MutatingWebhookConfiguration. Each change is guarded by a {@code test} of the
 * entry's name, so a patch computed from a stale read fails instead of touching the wrong entry.
 */
public final class CaBundlePatch {

  /** One entry of {@code webhooks[]}: its name and current {@code clientConfig.caBundle}. */
  public record Entry(String name, String caBundle, boolean hasClientConfig) {}

  private CaBundlePatch() {}

  /**
   * The operations that make every entry's caBundle equal {@code wantedBase64}; empty when all
   * already are.
   */
  public static List<Map<String, Object>> operations(List<Entry> entries, String wantedBase64) {
    Objects.requireNonNull(wantedBase64, "wantedBase64");
    List<Map<String, Object>> ops = new ArrayList<>();
    for (int i = 0; i < entries.size(); i++) {
      Entry entry = entries.get(i);
      if (wantedBase64.equals(entry.caBundle())) {
        continue;
      }
      String base = "/webhooks/" + i;
      ops.add(op("test", base + "/name", entry.name()));
      if (entry.hasClientConfig()) {
        ops.add(op("add", base + "/clientConfig/caBundle", wantedBase64));
      } else {
        ops.add(op("add", base + "/clientConfig", Map.of("caBundle", wantedBase64)));
      }
    }
    return ops;
  }

  private static Map<String, Object> op(String op, String path, Object value) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("op", op);
    m.put("path", path);
    m.put("value", value);
    return m;
  }
}
