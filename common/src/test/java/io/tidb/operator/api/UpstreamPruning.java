package io.tidb.operator.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * What kube-apiserver keeps of a manifest under upstream's own CRD: fields the structural schema
 * does not name are pruned (unless it preserves unknown fields there). A few upstream examples
 * carry such fields (e.g. {@code gcs.provider}); no CRD, upstream's or ours, keeps them.
 */
public final class UpstreamPruning {

  private UpstreamPruning() {}

  /** The fields of {@code doc} upstream's CRD prunes, as paths. */
  public static List<String> prunedPaths(JsonNode doc, JsonNode crd) {
    List<String> out = new ArrayList<>();
    prune(doc.deepCopy(), schemaOf(crd), "", out);
    return out;
  }

  /** {@code doc} as the API server stores it under upstream's CRD. */
  public static JsonNode pruned(JsonNode doc, JsonNode crd) {
    JsonNode copy = doc.deepCopy();
    prune(copy, schemaOf(crd), "", new ArrayList<>());
    return copy;
  }

  private static JsonNode schemaOf(JsonNode crd) {
    return crd.path("spec").path("versions").get(0).path("schema").path("openAPIV3Schema");
  }

  private static void prune(JsonNode node, JsonNode schema, String path, List<String> out) {
    if (schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false) && !schema.has("properties")) {
      return;
    }
    if (node instanceof ObjectNode obj) {
      JsonNode props = schema.path("properties");
      JsonNode additional = schema.path("additionalProperties");
      List<String> names = new ArrayList<>();
      obj.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        String p = path.isEmpty() ? name : path + "." + name;
        if (path.isEmpty() && (name.equals("apiVersion") || name.equals("kind") || name.equals("metadata"))) {
          continue;
        }
        if (props.has(name)) {
          prune(obj.get(name), props.get(name), p, out);
        } else if (additional.isObject()) {
          prune(obj.get(name), additional, p, out);
        } else if (!schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
          out.add(p);
          obj.remove(name);
        }
      }
    } else if (node instanceof ArrayNode arr && schema.path("items").isObject()) {
      for (int i = 0; i < arr.size(); i++) {
        prune(arr.get(i), schema.get("items"), path + "[" + i + "]", out);
      }
    }
  }
}
