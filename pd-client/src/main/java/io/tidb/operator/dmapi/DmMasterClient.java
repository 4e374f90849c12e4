package io.tidb.operator.dmapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tidb.operator.pd.ComponentHttp;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dm-master HTTP API (grpc-gateway under {@code /apis/v1alpha1}) as the operator uses it:
 * list masters, workers and the leader, delete a master or an offline worker, evict the leader.
 * Bound to one base URL: the dm-master Service for cluster-wide calls, or one member's URL for
 * {@link #evictLeader()}, which acts on the member it is sent to. Every answer is
 * {@code {"result": bool, "msg": string, ...}}; a {@code false} result is a refusal.
 */
public final class DmMasterClient {

  /** Upstream's timeout for DM API calls. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  static final String MEMBERS = "/apis/v1alpha1/members";
  static final String LEADER = "/apis/v1alpha1/leader";
  /** {@code PUT /apis/v1alpha1/leader/1}: the member resigns and stops campaigning. */
  static final String EVICT_LEADER = LEADER + "/1";

  private static final Logger LOG = LoggerFactory.getLogger(DmMasterClient.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ComponentHttp http;
  private final URI base;
  private final Duration timeout;

  public DmMasterClient(ComponentHttp http, URI base, Duration timeout) {
    this.http = http;
    this.base = base;
    this.timeout = timeout;
  }

  public URI base() {
    return base;
  }

  /** {@code GET /apis/v1alpha1/members?master=true}. */
  public List<DmMasterInfo> masters() {
    JsonNode list = section("GET", MEMBERS + "?master=true", "master");
    List<DmMasterInfo> out = new ArrayList<>();
    for (JsonNode m : list.path("masters")) {
      out.add(new DmMasterInfo(m.path("name").asText(""), m.path("memberID").asText(""),
          m.path("alive").asBoolean(false), texts(m.path("peerURLs")), texts(m.path("clientURLs"))));
    }
    return out;
  }

  /** {@code GET /apis/v1alpha1/members?worker=true}. */
  public List<DmWorkerInfo> workers() {
    JsonNode list = section("GET", MEMBERS + "?worker=true", "worker");
    List<DmWorkerInfo> out = new ArrayList<>();
    for (JsonNode w : list.path("workers")) {
      out.add(new DmWorkerInfo(w.path("name").asText(""), w.path("addr").asText(""),
          w.path("stage").asText(""), w.path("source").asText("")));
    }
    return out;
  }

  /** {@code GET /apis/v1alpha1/members?leader=true}. */
  public DmLeaderInfo leader() {
    JsonNode leader = section("GET", MEMBERS + "?leader=true", "leader");
    return new DmLeaderInfo(leader.path("name").asText(""), leader.path("addr").asText(""));
  }

  /** {@code PUT /apis/v1alpha1/leader/1} on the member this client is bound to. */
  public void evictLeader() {
    call("PUT", EVICT_LEADER);
  }

  /** {@code DELETE /apis/v1alpha1/members/master/<name>}. */
  public void deleteMaster(String name) {
    call("DELETE", MEMBERS + "/master/" + name);
  }

  /** {@code DELETE /apis/v1alpha1/members/worker/<name>}: DM refuses while the worker is online. */
  public void deleteWorker(String name) {
    call("DELETE", MEMBERS + "/worker/" + name);
  }

  /** The one {@code members[]} entry of a list answer, under {@code key}. */
  private JsonNode section(String method, String path, String key) {
    JsonNode body = call(method, path);
    JsonNode members = body.path("members");
    if (!members.isArray() || members.size() != 1 || !members.get(0).path(key).isObject()) {
      throw new DmApiException(DmApiException.Reason.UNDECODABLE, method, url(path), 200,
          "expected one members[]." + key + " entry: " + body, null);
    }
    return members.get(0).get(key);
  }

  private JsonNode call(String method, String path) {
    String url = url(path);
    long started = System.nanoTime();
    ComponentHttp.Reply response;
    try {
      response = http.send(method, URI.create(url), null, timeout);
    } catch (IOException e) {
      throw new DmApiException(DmApiException.Reason.UNREACHABLE, method, url, 0, e.toString(), e);
    }
    LOG.debug("dm call method={} url={} status={} durationMs={}", method, url,
        response.status(), (System.nanoTime() - started) / 1_000_000);
    if (response.status() != 200) {
      throw new DmApiException(DmApiException.Reason.HTTP_STATUS, method, url,
          response.status(), response.body(), null);
    }
    JsonNode body;
    try {
      body = JSON.readTree(response.body());
    } catch (IOException e) {
      throw new DmApiException(DmApiException.Reason.UNDECODABLE, method, url, 200, response.body(), e);
    }
    if (body == null || !body.isObject()) {
      throw new DmApiException(DmApiException.Reason.UNDECODABLE, method, url, 200, response.body(), null);
    }
    if (!body.path("result").asBoolean(false)) {
      throw new DmApiException(DmApiException.Reason.REFUSED, method, url, 200,
          body.path("msg").asText(""), null);
    }
    return body;
  }

  private String url(String path) {
    String text = base.toString();
    return (text.endsWith("/") ? text.substring(0, text.length() - 1) : text) + path;
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
