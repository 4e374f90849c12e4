package io.tidb.operator.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.zjsonpatch.DiffFlags;
import io.fabric8.zjsonpatch.JsonDiff;
import java.util.EnumSet;
import java.util.Optional;

/**
 * The JSON Patch (RFC 6902) that turns an object into its defaulted form. Both sides are written
 * with a mapper that leaves nulls out, so the patch never carries null values or operations on
 * fields neither side sets. The object's tree is taken before it is defaulted ({@link #tree}), so
 * the defaults can be filled into the object itself instead of a copy.
 *
 * <p>The patch has only {@code add}, {@code replace} and {@code remove} operations (a remove
 * without the value it removes). The diff's default also looks for {@code copy} and {@code move}
 * operations: a search of every unchanged value of the object for one equal to each added value,
 * which was most of the diff's time and gains nothing here, where defaulting only fills fields in.
 */
final class DefaultingPatch {

  private static final EnumSet<DiffFlags> ADD_REPLACE_REMOVE = EnumSet.of(
      DiffFlags.OMIT_VALUE_ON_REMOVE, DiffFlags.OMIT_COPY_OPERATION, DiffFlags.OMIT_MOVE_OPERATION);

  private final ObjectMapper nonNullMapper;

  DefaultingPatch(ObjectMapper nonNullMapper) {
    this.nonNullMapper = nonNullMapper;
  }

  /** The JSON tree of {@code object} as the patch compares it: nulls left out. */
  JsonNode tree(Object object) {
    return nonNullMapper.valueToTree(object);
  }

  /** The patch from {@code before} (a {@link #tree}) to {@code defaulted}; empty when they are the same. */
  Optional<byte[]> between(JsonNode before, Object defaulted) {
    JsonNode patch = JsonDiff.asJson(before, tree(defaulted), ADD_REPLACE_REMOVE);
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
