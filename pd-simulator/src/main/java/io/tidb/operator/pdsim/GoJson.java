package io.tidb.operator.pdsim;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.Map;

/**
 * Writes JSON the way Go's {@code encoding/json} does: {@code MarshalIndent(v, "", indent)} or
 * {@code Marshal(v)}, with HTML characters escaped, integers (including unsigned 64-bit ones held
 * as big integers) printed exactly, and floats in Go's shortest form.
 */
final class GoJson {

  private GoJson() {}

  /** PD's rendering (rule R1): two-space indentation followed by a newline. */
  static String pdBody(JsonNode node) {
    return indent(node, "  ") + "\n";
  }

  /** {@code json.MarshalIndent(v, "", indent)}. */
  static String indent(JsonNode node, String indent) {
    StringBuilder out = new StringBuilder();
    write(node, out, indent, 0);
    return out.toString();
  }

  /** {@code json.Marshal(v)}. */
  static String compact(JsonNode node) {
    StringBuilder out = new StringBuilder();
    write(node, out, null, 0);
    return out.toString();
  }

  private static void write(JsonNode node, StringBuilder out, String indent, int depth) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      out.append("null");
    } else if (node.isObject()) {
      writeObject(node, out, indent, depth);
    } else if (node.isArray()) {
      writeArray(node, out, indent, depth);
    } else if (node.isTextual()) {
      quote(node.textValue(), out);
    } else if (node.isBoolean()) {
      out.append(node.booleanValue());
    } else if (node.isIntegralNumber()) {
      out.append(node.bigIntegerValue());
    } else if (node.isNumber()) {
      out.append(formatFloat(node.doubleValue()));
    } else {
      throw new IllegalArgumentException("unsupported JSON node type " + node.getNodeType());
    }
  }

  private static void writeObject(JsonNode node, StringBuilder out, String indent, int depth) {
    if (node.isEmpty()) {
      out.append("{}");
      return;
    }
    out.append('{');
    Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
    boolean first = true;
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      if (!first) {
        out.append(',');
      }
      first = false;
      newline(out, indent, depth + 1);
      quote(field.getKey(), out);
      out.append(indent == null ? ":" : ": ");
      write(field.getValue(), out, indent, depth + 1);
    }
    newline(out, indent, depth);
    out.append('}');
  }

  private static void writeArray(JsonNode node, StringBuilder out, String indent, int depth) {
    if (node.isEmpty()) {
      out.append("[]");
      return;
    }
    out.append('[');
    for (int i = 0; i < node.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      newline(out, indent, depth + 1);
      write(node.get(i), out, indent, depth + 1);
    }
    newline(out, indent, depth);
    out.append(']');
  }

  private static void newline(StringBuilder out, String indent, int depth) {
    if (indent != null) {
      out.append('\n');
      out.append(indent.repeat(depth));
    }
  }

  /** Go's float64 encoding: shortest representation, no exponent for ordinary magnitudes. */
  static String formatFloat(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      throw new IllegalArgumentException("JSON cannot encode " + value);
    }
    if (value == Math.rint(value) && Math.abs(value) < 1e21) {
      return new BigDecimal(value).toBigInteger().toString();
    }
    return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }

  static void quote(String text, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '<', '>', '&', '\u2028', '\u2029' -> out.append(String.format("\\u%04x", (int) c));
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
