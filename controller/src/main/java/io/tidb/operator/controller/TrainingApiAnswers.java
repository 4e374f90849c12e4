package io.tidb.operator.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What {@link TrainingApiServer} answers to one request: just enough of the Kubernetes API for a
 * controller to start and reconcile one cluster. Lists hold the sample cluster in {@code
 * tidbclusters} and the objects given for other resources (whatever the namespace and selector),
 * and are empty otherwise; a watch stays open with no event; a write (apply, create, replace, status
 * patch) is answered with the object it sent, given a uid and a resource version (an access
 * review also with {@code allowed}), and a status patch of the sample with the sample carrying
 * that status; a read of anything else is 404.
 */
final class TrainingApiAnswers {

  /** One answer: the status code and JSON body, or a watch that stays open. */
  record Answer(int status, String body, boolean watch) {

    static Answer json(int status, String body) {
      return new Answer(status, body, false);
    }
  }

  /** The parts of a request path: its resource, the object's name, and a subresource. */
  record Target(String resource, String name, String subresource) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ObjectNode sample;
  private final Map<String, List<JsonNode>> listed;

  /**
   * @param sampleCluster the TidbCluster (JSON) listed and read back, with namespace and uid
   * @param listed objects (JSON) in the lists of other resources, by resource ({@code pods}, ...)
   */
  TrainingApiAnswers(String sampleCluster, Map<String, List<String>> listed) {
    this.sample = (ObjectNode) read(sampleCluster);
    this.listed = listed.entrySet().stream().collect(Collectors.toUnmodifiableMap(
        Map.Entry::getKey, e -> e.getValue().stream().map(TrainingApiAnswers::read).toList()));
  }

  /** The answer to {@code method} on {@code path} with {@code query} (may be null) and {@code body}. */
  Answer answer(String method, String path, String query, byte[] body) {
    Target target = target(path);
    if (target == null) {
      return notFound(path);
    }
    return switch (method) {
      case "GET" -> {
        if (query != null && Arrays.asList(query.split("&")).contains("watch=true")) {
          yield new Answer(200, "", true);
        }
        if (target.name() == null) {
          yield Answer.json(200, list(target.resource()));
        }
        yield isSample(target) && target.subresource() == null
            ? Answer.json(200, sample.toString())
            : notFound(path);
      }
      case "POST", "PUT", "PATCH" -> written(target, body, method.equals("POST") ? 201 : 200);
      case "DELETE" -> Answer.json(200, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Success\"}");
      default -> Answer.json(405, status(405, "MethodNotAllowed", method + " " + path));
    };
  }

  /**
   * The resource, name and subresource of an API path ({@code /api/v1/...} or {@code
   * /apis/<group>/<version>/...}, namespaced or not), or null for any other path.
   */
  static Target target(String path) {
    List<String> parts = Arrays.stream(path.split("/")).filter(p -> !p.isEmpty()).toList();
    int start;
    if (parts.size() >= 2 && parts.get(0).equals("api")) {
      start = 2;
    } else if (parts.size() >= 3 && parts.get(0).equals("apis")) {
      start = 3;
    } else {
      return null;
    }
    List<String> rest = parts.subList(start, parts.size());
    if (rest.size() >= 3 && rest.get(0).equals("namespaces")) {
      rest = rest.subList(2, rest.size());
    }
    if (rest.isEmpty() || rest.size() > 3) {
      return null;
    }
    return new Target(
        rest.get(0), rest.size() > 1 ? rest.get(1) : null, rest.size() > 2 ? rest.get(2) : null);
  }

  private boolean isSample(Target target) {
    return target.resource().equals("tidbclusters")
        && sample.path("metadata").path("name").asText().equals(target.name());
  }

  private String list(String resource) {
    ObjectNode list = JSON.createObjectNode();
    list.put("apiVersion", "v1");
    list.put("kind", "List");
    list.putObject("metadata").put("resourceVersion", "1");
    ArrayNode items = list.putArray("items");
    if (resource.equals("tidbclusters")) {
      items.add(sample);
    }
    items.addAll(listed.getOrDefault(resource, List.of()));
    return list.toString();
  }

  /** The object a write sent, as the API server would store it. */
  private Answer written(Target target, byte[] body, int status) {
    if (isSample(target) && "status".equals(target.subresource())) {
      ObjectNode cluster = sample.deepCopy();
      cluster.set("status", read(body).path("status"));
      ((ObjectNode) cluster.get("metadata")).put("resourceVersion", "2");
      return Answer.json(status, cluster.toString());
    }
    if (!(read(body) instanceof ObjectNode object)) {
      return Answer.json(400, status(400, "BadRequest", "the body is not a JSON object"));
    }
    if (target.resource().equals("selfsubjectaccessreviews")) {
      // The chart grants everything the operator asks about (the volume cache's list and watch).
      object.putObject("status").put("allowed", true);
    }
    ObjectNode metadata = object.with("metadata");
    if (!metadata.has("uid")) {
      metadata.put("uid", String.format(
          "00000000-0000-0000-0000-%012x", metadata.path("name").asText().hashCode() & 0xffffffffL));
    }
    metadata.put("resourceVersion", "2");
    metadata.put("creationTimestamp", "2026-01-01T00:00:00Z");
    return Answer.json(status, object.toString());
  }

  private static Answer notFound(String path) {
    return Answer.json(404, status(404, "NotFound", path + " not found"));
  }

  private static String status(int code, String reason, String message) {
    ObjectNode status = JSON.createObjectNode();
    status.put("kind", "Status");
    status.put("apiVersion", "v1");
    status.put("status", "Failure");
    status.put("reason", reason);
    status.put("message", message);
    status.put("code", code);
    return status.toString();
  }

  private static JsonNode read(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode read(byte[] json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      return JSON.missingNode();
    }
  }
}
