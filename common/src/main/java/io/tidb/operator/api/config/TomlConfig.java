package io.tidb.operator.api.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;

/**
 * Parses and renders component configuration files in TOML, the format PD, TiKV, TiDB, TiFlash,
 * TiCDC, TiProxy and Pump read. Uses {@code jackson-dataformat-toml}; stateless.
 */
public final class TomlConfig {

  private static final TomlMapper MAPPER = new TomlMapper();

  private TomlConfig() {}

  /**
   * Parses a TOML document into a tree of tables.
   *
   * @throws InvalidConfigException with the parser's message if the text is not valid TOML
   */
  public static ObjectNode parse(String toml) {
    try {
      JsonNode node = MAPPER.readTree(toml);
      if (node == null || node.isMissingNode()) {
        return MAPPER.createObjectNode();
      }
      return (ObjectNode) normalize(node);
    } catch (JsonProcessingException e) {
      throw new InvalidConfigException("config is not valid TOML: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * Renders a tree of tables as a TOML document. Nested maps become {@code [table]} sections
   * rather than dotted keys, so parsers that only know TOML 0.4 (older PD and TiDB releases) read
   * it too; keys and values are written by {@code jackson-dataformat-toml}.
   *
   * @throws InvalidConfigException if the tree holds something TOML cannot express (e.g. null)
   */
  public static String render(JsonNode tree) {
    if (!tree.isObject()) {
      throw new InvalidConfigException("a TOML document must be a table, got " + tree.getNodeType());
    }
    StringBuilder out = new StringBuilder();
    renderTable((ObjectNode) tree, "", out);
    return out.toString();
  }

  private static void renderTable(ObjectNode table, String header, StringBuilder out) {
    for (Iterator<Map.Entry<String, JsonNode>> it = table.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!e.getValue().isObject()) {
        out.append(keyValue(e.getKey(), e.getValue()));
      }
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = table.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getValue().isObject()) {
        String child = (header.isEmpty() ? "" : header + ".") + key(e.getKey());
        if (out.length() > 0) {
          out.append('\n');
        }
        out.append('[').append(child).append("]\n");
        renderTable((ObjectNode) e.getValue(), child, out);
      }
    }
  }

  private static String keyValue(String key, JsonNode value) {
    if (value.isNull()) {
      throw new InvalidConfigException("config key " + key + " is null; TOML has no null");
    }
    ObjectNode single = MAPPER.createObjectNode();
    single.set(key, value);
    try {
      return MAPPER.writeValueAsString(single);
    } catch (JsonProcessingException e) {
      throw new InvalidConfigException("config key " + key + " cannot be rendered as TOML: " + e.getOriginalMessage(), e);
    }
  }

  /** A table-header segment: bare when TOML allows, else a quoted string. */
  private static String key(String key) {
    if (!key.isEmpty() && key.chars().allMatch(c -> (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
        || (c >= '0' && c <= '9') || c == '_' || c == '-')) {
      return key;
    }
    String line = keyValue(key, MAPPER.getNodeFactory().numberNode(0));
    return line.substring(0, line.lastIndexOf(" = "));
  }

  /**
   * A copy of {@code node} whose numbers have one representation each (integers as long, other
   * numbers as double), so trees from TOML text and from YAML maps compare equal when they hold
   * the same values.
   */
  public static JsonNode normalize(JsonNode node) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    if (node.isObject()) {
      ObjectNode out = f.objectNode();
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        out.set(e.getKey(), normalize(e.getValue()));
      }
      return out;
    }
    if (node.isArray()) {
      ArrayNode out = f.arrayNode();
      node.forEach(item -> out.add(normalize(item)));
      return out;
    }
    if (node.isIntegralNumber() && node.canConvertToLong()) {
      return f.numberNode(node.longValue());
    }
    if (node.isFloatingPointNumber()) {
      return f.numberNode(node.doubleValue());
    }
    return node.deepCopy();
  }
}
