package io.tidb.operator.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.zjsonpatch.JsonDiff;

/** Readable differences between two JSON trees, for assertion messages. */
public final class JsonDiffs {
  private JsonDiffs() {}

  public static String describe(JsonNode expected, JsonNode actual) {
    return "JSON patch from expected to actual: " + JsonDiff.asJson(expected, actual);
  }
}
