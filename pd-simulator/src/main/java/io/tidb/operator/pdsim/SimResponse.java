package io.tidb.operator.pdsim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/** One HTTP response of a simulated server. */
public record SimResponse(int status, String contentType, String body, Map<String, String> headers) {

  static final String PD_JSON = "application/json; charset=UTF-8";
  static final String TEXT = "text/plain; charset=utf-8";

  public SimResponse {
    headers = Map.copyOf(headers);
  }

  /** PD's {@code rd.JSON(w, status, v)}: indented JSON plus a newline (rule R1). */
  static SimResponse pdJson(int status, JsonNode node) {
    return new SimResponse(status, PD_JSON, GoJson.pdBody(node), Map.of());
  }

  /** A PD message: a JSON-encoded string plus a newline (rule R2). */
  static SimResponse pdMessage(int status, String message) {
    return pdJson(status, JsonNodeFactory.instance.textNode(message));
  }

  static SimResponse text(int status, String body) {
    return new SimResponse(status, TEXT, body, Map.of());
  }

  static SimResponse empty(int status) {
    return new SimResponse(status, null, "", Map.of());
  }

  /** gorilla/mux's answer to an unknown path (rule R7). */
  static SimResponse notFound() {
    return text(404, "404 page not found\n");
  }

  /** How the simulator answers where a real client would fail to connect. */
  static SimResponse unreachable(String what) {
    return text(503, "pd-simulator: " + what + " is not reachable\n");
  }

  /** Renders a PD error the way PD does. */
  static SimResponse error(SimulatedPdException e) {
    return switch (e.rendering()) {
      case JSON_STRING -> pdMessage(e.status(), e.getMessage());
      case INPUT_ERROR -> errorCode(e.status(), "input", e.getMessage());
      case INTERNAL_ERROR -> errorCode(e.status(), "internal", e.getMessage());
    };
  }

  private static SimResponse errorCode(int status, String code, String message) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("code", code);
    node.put("msg", message);
    node.putObject("data");
    return new SimResponse(status, PD_JSON, GoJson.pdBody(node), Map.of("TiDB-Error-Code", code));
  }
}
