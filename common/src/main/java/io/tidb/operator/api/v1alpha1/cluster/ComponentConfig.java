package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tidb.operator.api.config.InvalidConfigException;
import io.tidb.operator.api.config.TomlConfig;
import java.util.Objects;
import java.util.Optional;

/**
 * A component's free-form configuration file, exactly as the user wrote it: either a map (YAML
 * object) or a TOML document in a string ({@code config: |} blocks, as upstream examples use).
 * Serialization gives back the same JSON value, so nothing is lost or reformatted.
 *
 * <p>Immutable. Reading keys works on both forms; {@link #with} keeps the form it started from.
 */
public final class ComponentConfig {

  private final JsonNode raw;
  /**
   * {@link #tree()} as first computed, never handed out (callers get copies); null until then.
   * One object is read by many reconciles (an informer's cached cluster) and several rules of one
   * admission review: the TOML is parsed once instead of each time.
   */
  private volatile ObjectNode parsed;

  private ComponentConfig(JsonNode raw) {
    this.raw = raw;
  }

  /**
   * Wraps a JSON value: an object, or a string holding TOML. Other kinds (numbers, arrays) are
   * kept as given and reported by {@link #tree()} as invalid.
   */
  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public static ComponentConfig of(JsonNode raw) {
    return new ComponentConfig(Objects.requireNonNull(raw, "raw").deepCopy());
  }

  /** An empty map configuration. */
  public static ComponentConfig empty() {
    return new ComponentConfig(JsonNodeFactory.instance.objectNode());
  }

  /** A configuration given as TOML text. */
  public static ComponentConfig ofToml(String toml) {
    return new ComponentConfig(TextNode.valueOf(toml));
  }

  /** The value as written: an object node or a text node with TOML. */
  @JsonValue
  public JsonNode raw() {
    return raw.deepCopy();
  }

  /** Whether the user wrote the configuration as a TOML string. */
  public boolean isToml() {
    return raw.isTextual();
  }

  /**
   * The configuration as a tree of tables, parsing TOML text when needed. Numbers are normalized
   * (see {@link TomlConfig#normalize}), so equal settings give equal trees in either form.
   *
   * @throws InvalidConfigException if the TOML does not parse or the value is neither an object
   *     nor a string
   */
  public ObjectNode tree() {
    return parsedTree().deepCopy();
  }

  /**
   * Reads the configuration into its tree of tables once ({@link #tree()} and {@link #get} reuse
   * it) and copies nothing: for a rule that only needs to know that it parses.
   *
   * @throws InvalidConfigException if the TOML does not parse or the value is neither an object
   *     nor a string
   */
  public void requireValid() {
    parsedTree();
  }

  /** The memo of {@link #tree()} itself: read it, never change it or hand it out. */
  private ObjectNode parsedTree() {
    ObjectNode tree = parsed;
    if (tree == null) {
      tree = parse();
      parsed = tree;
    }
    return tree;
  }

  private ObjectNode parse() {
    if (raw.isObject()) {
      return (ObjectNode) TomlConfig.normalize(raw);
    }
    if (raw.isTextual()) {
      return TomlConfig.parse(raw.asText());
    }
    throw new InvalidConfigException(
        "config must be a map or a TOML string, got " + raw.getNodeType().name().toLowerCase());
  }

  /**
   * The value at a dotted key path such as {@code log.file.max-backups}; a key containing dots
   * can't be addressed this way.
   *
   * @throws InvalidConfigException if the TOML does not parse
   */
  public Optional<JsonNode> get(String dottedPath) {
    JsonNode node = parsedTree();
    for (String key : dottedPath.split("\\.")) {
      node = node.get(key);
      if (node == null) {
        return Optional.empty();
      }
    }
    return Optional.of(node.deepCopy());
  }

  /**
   * A copy with {@code value} set at a dotted key path, creating tables on the way. A TOML-string
   * configuration stays a TOML string (re-rendered, so comments are not kept).
   *
   * @throws InvalidConfigException if the TOML does not parse or a key on the path is not a table
   */
  public ComponentConfig with(String dottedPath, JsonNode value) {
    ObjectNode root = tree();
    String[] keys = dottedPath.split("\\.");
    ObjectNode table = root;
    for (int i = 0; i < keys.length - 1; i++) {
      JsonNode next = table.get(keys[i]);
      if (next == null) {
        table = table.putObject(keys[i]);
      } else if (next.isObject()) {
        table = (ObjectNode) next;
      } else {
        throw new InvalidConfigException(
            "config key " + String.join(".", java.util.Arrays.copyOf(keys, i + 1))
                + " is not a table");
      }
    }
    table.set(keys[keys.length - 1], value);
    return isToml() ? ofToml(TomlConfig.render(root)) : new ComponentConfig(root);
  }

  /** The configuration rendered as a TOML document. */
  public String toToml() {
    return TomlConfig.render(parsedTree());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ComponentConfig that && raw.equals(that.raw);
  }

  @Override
  public int hashCode() {
    return raw.hashCode();
  }

  @Override
  public String toString() {
    return raw.toString();
  }
}
