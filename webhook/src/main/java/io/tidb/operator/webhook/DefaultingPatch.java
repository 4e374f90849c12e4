package io.tidb.operator.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.zjsonpatch.JsonDiff;
import java.util.Optional;

/**
 * The JSON Patch (RFC 6902) that turns an object into its defaulted copy. Both sides are written
 * with a mapper that leaves nulls out, so the patch never carries null values or operations on
 * fields neither side sets.
 */
final class DefaultingPatch {

  private final ObjectMapper nonNullMapper;

  DefaultingPatch(ObjectMapper nonNullMapper) {
    this.nonNullMapper = nonNullMapper;
  }

  /** The patch as JSON bytes; empty when the two objects serialize the same. */
  Optional<byte[]> between(Object original, Object defaulted) {
    JsonNode before = nonNullMapper.valueToTree(original);
    JsonNode after = nonNullMapper.valueToTree(defaulted);
    JsonNode patch = JsonDiff.asJson(before, after);
    if (patch.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(nonNullMapper.writeValueAsBytes(patch));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize JSON patch", e);
    }
  }
}
