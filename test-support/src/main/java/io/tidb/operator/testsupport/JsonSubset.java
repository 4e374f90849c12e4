package io.tidb.operator.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Which parts of a submitted object the API server did not keep: pruned unknown fields or changed
 * values. Fields the server added (defaults, status) are fine; {@code null}s are skipped, since the
 * API server drops nulls of non-nullable fields by design.
 */
public final class JsonSubset {

  private JsonSubset() {
  }

  /** Paths (like {@code spec.pd.config}) whose value in {@code expected} is missing or different in {@code actual}. */
  public static List<String> differences(JsonNode expected, JsonNode actual) {
    List<String> differences = new ArrayList<>();
    collect("", expected, actual, differences);
    return differences;
  }

  private static void collect(String path, JsonNode expected, JsonNode actual, List<String> differences) {
    if (expected == null || expected.isNull()) {
      return;
    }
    if (actual == null || actual.isMissingNode() || actual.isNull()) {
      differences.add(path + " (missing)");
      return;
    }
    if (expected.isObject() && actual.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> fields = expected.fields(); fields.hasNext(); ) {
        Map.Entry<String, JsonNode> field = fields.next();
        collect(path.isEmpty() ? field.getKey() : path + "." + field.getKey(), field.getValue(),
            actual.get(field.getKey()), differences);
      }
    } else if (expected.isArray() && actual.isArray() && expected.size() == actual.size()) {
      for (int i = 0; i < expected.size(); i++) {
        collect(path + "[" + i + "]", expected.get(i), actual.get(i), differences);
      }
    } else if (!sameValue(expected, actual)) {
      differences.add(path + " (sent " + expected + ", stored " + actual + ")");
    }
  }

  private static boolean sameValue(JsonNode expected, JsonNode actual) {
    if (expected.isNumber() && actual.isNumber()) {
      return expected.decimalValue().compareTo(actual.decimalValue()) == 0;
    }
    return expected.equals(actual);
  }
}
