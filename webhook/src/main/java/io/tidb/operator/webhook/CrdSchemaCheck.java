package io.tidb.operator.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.tidb.operator.api.crd.CrdCatalog;
import io.tidb.operator.api.validation.Violation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The structural checks of a CRD's OpenAPI schema (types, enums, bounds, patterns, lengths, item
 * counts, required fields), run by the webhook so that one answer lists everything wrong. The
 * mutating webhook runs before the API server's schema check, which would otherwise report its
 * findings only after this webhook's. CEL rules ({@code x-kubernetes-validations}) are left to the
 * API server. Pure once loaded; {@code metadata} and {@code status} are not walked.
 */
final class CrdSchemaCheck {

  private final JSONSchemaProps root;
  private final Map<String, Pattern> patterns = new ConcurrentHashMap<>();

  CrdSchemaCheck(JSONSchemaProps root) {
    this.root = root;
  }

  /** The schema of {@code version} in the CRD file at {@code resource} on the class path. */
  static CrdSchemaCheck load(String resource, String version) {
    try (InputStream in = CrdSchemaCheck.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("no CRD " + resource + " on the class path");
      }
      CustomResourceDefinition crd =
          CrdCatalog.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      for (CustomResourceDefinitionVersion v : crd.getSpec().getVersions()) {
        if (v.getName().equals(version)) {
          return new CrdSchemaCheck(v.getSchema().getOpenAPIV3Schema());
        }
      }
      throw new IllegalStateException("CRD " + resource + " has no version " + version);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read CRD " + resource, e);
    }
  }

  /** Every violation of the schema in {@code object}, in document order. */
  List<Violation> check(JsonNode object) {
    List<Violation> out = new ArrayList<>();
    if (object == null || !object.isObject() || root.getProperties() == null) {
      return out;
    }
    for (Map.Entry<String, JSONSchemaProps> e : root.getProperties().entrySet()) {
      String name = e.getKey();
      if (name.equals("metadata") || name.equals("status")) {
        continue;
      }
      JsonNode value = object.get(name);
      if (value != null) {
        walk(name, value, e.getValue(), out);
      }
    }
    return out;
  }

  private void walk(String path, JsonNode node, JSONSchemaProps schema, List<Violation> out) {
    if (node.isNull()) {
      return; // absent, as far as these checks go
    }
    if (Boolean.TRUE.equals(schema.getXKubernetesIntOrString())) {
      if (!node.isIntegralNumber() && !node.isTextual()) {
        out.add(Violation.invalid(path, shown(node), "must be an integer or a string"));
      }
      return;
    }
    String type = schema.getType();
    if (type == null || type.isEmpty()) {
      return; // untyped (x-kubernetes-preserve-unknown-fields): anything goes
    }
    if (!hasType(node, type)) {
      out.add(Violation.invalid(path, shown(node), "must be of type " + type));
      return;
    }
    switch (type) {
      case "object":
        object(path, node, schema, out);
        break;
      case "array":
        array(path, node, schema, out);
        break;
      case "string":
        string(path, node.textValue(), schema, out);
        break;
      case "integer":
      case "number":
        number(path, node, schema, out);
        break;
      default:
        break;
    }
    if (schema.getEnum() != null && !schema.getEnum().isEmpty() && !schema.getEnum().contains(node)) {
      out.add(Violation.notSupported(path, shown(node), "supported values: "
          + schema.getEnum().stream().map(JsonNode::toString).collect(Collectors.joining(", "))));
    }
  }

  private void object(String path, JsonNode node, JSONSchemaProps schema, List<Violation> out) {
    if (schema.getRequired() != null) {
      for (String name : schema.getRequired()) {
        if (!node.has(name) || node.get(name).isNull()) {
          out.add(Violation.required(path + "." + name, ""));
        }
      }
    }
    Map<String, JSONSchemaProps> properties = schema.getProperties();
    JSONSchemaProps additional = schema.getAdditionalProperties() == null
        ? null : schema.getAdditionalProperties().getSchema();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      JSONSchemaProps child = properties == null ? null : properties.get(field.getKey());
      if (child == null) {
        child = additional;
      }
      if (child != null) {
        walk(path + "." + field.getKey(), field.getValue(), child, out);
      }
    }
  }

  private void array(String path, JsonNode node, JSONSchemaProps schema, List<Violation> out) {
    if (schema.getMinItems() != null && node.size() < schema.getMinItems()) {
      out.add(Violation.invalid(path, node.size() + " items", "must have at least " + schema.getMinItems() + " items"));
    }
    if (schema.getMaxItems() != null && node.size() > schema.getMaxItems()) {
      out.add(Violation.invalid(path, node.size() + " items", "must have at most " + schema.getMaxItems() + " items"));
    }
    JSONSchemaProps items = schema.getItems() == null ? null : schema.getItems().getSchema();
    if (items != null) {
      for (int i = 0; i < node.size(); i++) {
        walk(path + "[" + i + "]", node.get(i), items, out);
      }
    }
  }

  private void string(String path, String value, JSONSchemaProps schema, List<Violation> out) {
    int length = value.codePointCount(0, value.length());
    if (schema.getMinLength() != null && length < schema.getMinLength()) {
      out.add(Violation.invalid(path, value, "must be at least " + schema.getMinLength() + " characters long"));
    }
    if (schema.getMaxLength() != null && length > schema.getMaxLength()) {
      out.add(Violation.invalid(path, value, "may not be longer than " + schema.getMaxLength() + " characters"));
    }
    String pattern = schema.getPattern();
    if (pattern != null && !patterns.computeIfAbsent(pattern, Pattern::compile).matcher(value).find()) {
      out.add(Violation.invalid(path, value, "must match the pattern " + pattern));
    }
  }

  private static void number(String path, JsonNode node, JSONSchemaProps schema, List<Violation> out) {
    double value = node.asDouble();
    Object shown = node.numberValue();
    if (schema.getMinimum() != null) {
      boolean exclusive = Boolean.TRUE.equals(schema.getExclusiveMinimum());
      if (exclusive ? value <= schema.getMinimum() : value < schema.getMinimum()) {
        out.add(Violation.invalid(path, shown, "must be greater than " + (exclusive ? "" : "or equal to ")
            + plain(schema.getMinimum())));
      }
    }
    if (schema.getMaximum() != null) {
      boolean exclusive = Boolean.TRUE.equals(schema.getExclusiveMaximum());
      if (exclusive ? value >= schema.getMaximum() : value > schema.getMaximum()) {
        out.add(Violation.invalid(path, shown, "must be less than " + (exclusive ? "" : "or equal to ")
            + plain(schema.getMaximum())));
      }
    }
  }

  private static String plain(double bound) {
    return bound == Math.rint(bound) ? Long.toString((long) bound) : Double.toString(bound);
  }

  private static boolean hasType(JsonNode node, String type) {
    switch (type) {
      case "object":
        return node.isObject();
      case "array":
        return node.isArray();
      case "string":
        return node.isTextual();
      case "integer":
        return node.isIntegralNumber() || node.isNumber() && node.asDouble() == Math.rint(node.asDouble());
      case "number":
        return node.isNumber();
      case "boolean":
        return node.isBoolean();
      default:
        return true;
    }
  }

  /** A value as a violation shows it: scalars as they are, containers by their type. */
  private static Object shown(JsonNode node) {
    if (node.isObject()) {
      return "object";
    }
    if (node.isArray()) {
      return "array";
    }
    if (node.isTextual()) {
      return node.textValue();
    }
    if (node.isNumber()) {
      return node.numberValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    return node.toString();
  }
}
