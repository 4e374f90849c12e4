package io.tidb.operator.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * JSON helpers for the API model, using fabric8's serialization (the same the Kubernetes client
 * uses), so copies and trees match what goes over the wire.
 */
public final class ApiObjects {

  private static final KubernetesSerialization SERIALIZATION =
      new KubernetesSerialization(mapper(), true);

  private ApiObjects() {}

  /**
   * The mapper before fabric8 configures it: watch events' objects read in one pass, and each
   * property's deserializer built when a value first arrives for it ({@link
   * LazyPropertyDeserializers}).
   */
  private static ObjectMapper mapper() {
    return new ObjectMapper()
        .addMixIn(WatchEvent.class, WatchEventObjectMixIn.class)
        .registerModule(new SimpleModule("lazy-property-deserializers")
            .setDeserializerModifier(new LazyPropertyDeserializers()));
  }

  /** Puts {@link WatchObjectReader} in the place of fabric8's reader of a watch event's object. */
  private abstract static class WatchEventObjectMixIn {
    @JsonDeserialize(using = WatchObjectReader.class)
    abstract void setObject(Object object);
  }

  /** A deep copy of {@code obj} made through JSON; {@code null} gives {@code null}. */
  @SuppressWarnings("unchecked")
  public static <T> T deepCopy(T obj) {
    if (obj == null) {
      return null;
    }
    return (T) SERIALIZATION.convertValue(obj, obj.getClass());
  }

  /** The JSON tree {@code obj} serializes to. */
  public static JsonNode toTree(Object obj) {
    return SERIALIZATION.convertValue(obj, JsonNode.class);
  }

  /** Reads {@code type} from a JSON tree. */
  public static <T> T fromTree(JsonNode tree, Class<T> type) {
    return SERIALIZATION.convertValue(tree, type);
  }

  /** Reads {@code type} from JSON or YAML text (one document). */
  public static <T> T parse(String jsonOrYaml, Class<T> type) {
    return SERIALIZATION.unmarshal(jsonOrYaml, type);
  }

  /** Compact JSON of {@code obj}. */
  public static String toJson(Object obj) {
    return SERIALIZATION.asJson(obj);
  }

  /** The serialization used here, for callers that need the underlying mapper. */
  public static KubernetesSerialization serialization() {
    return SERIALIZATION;
  }
}
