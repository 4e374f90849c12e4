package io.tidb.operator.pd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The binlog side the operator uses, as upstream's binlog client does: the registry of pumps that
 * PD's etcd holds under {@value #PUMPS_PREFIX}{@code <nodeId>} (one JSON document per pump with
 * {@code nodeId}, {@code host}, {@code state}), and a pump's own {@code PUT
 * /state/<nodeId>/close} on port 8250, which asks it to go offline.
 */
public final class PumpClient {

  /** Where pumps register themselves in PD's etcd. */
  public static final String PUMPS_PREFIX = "/tidb-binlog/v1/pumps/";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final PdHttp http;

  public PumpClient(ComponentHttp httpClient, Duration requestTimeout) {
    this.http = new PdHttp(httpClient, requestTimeout);
  }

  /** One pump of the registry. */
  public record Node(String nodeId, String host, String state) {}

  /** Every pump registered in {@code etcd}, in key order. */
  public static List<Node> registry(PdEtcdClient etcd) {
    List<Node> out = new ArrayList<>();
    for (Map.Entry<String, String> e : etcd.range(PUMPS_PREFIX).entrySet()) {
      out.add(node(e.getKey(), e.getValue()));
    }
    return out;
  }

  static Node node(String key, String value) {
    try {
      JsonNode n = JSON.readTree(value);
      if (n == null || !n.isObject()) {
        throw new PdClientException("POST", PdEtcdClient.KV_RANGE,
            "pump registry key " + key + " holds no JSON object: " + value, null);
      }
      return new Node(n.path("nodeId").asText(""), n.path("host").asText(""),
          n.path("state").asText(""));
    } catch (IOException e) {
      throw new PdClientException("POST", PdEtcdClient.KV_RANGE,
          "pump registry key " + key + " holds no JSON: " + value, e);
    }
  }

  /**
   * {@code PUT /state/<nodeId>/close} on the pump at {@code base}: the pump answers {@code
   * {"code": 200, ...}} when it accepts to go offline.
   */
  public void offline(URI base, String nodeId) {
    PdHttp.Response r = http.send(base, "PUT", "/state/" + nodeId + "/close", null);
    if (r.status() < 200 || r.status() >= 400) {
      throw r.unexpected();
    }
    JsonNode body;
    try {
      body = JSON.readTree(r.body());
    } catch (IOException e) {
      throw r.undecodable("not JSON: " + e.getMessage());
    }
    if (body == null || body.path("code").asInt(0) != 200) {
      throw r.undecodable("a status with code 200");
    }
  }
}
