package io.tidb.operator.pd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the operator asks one TiCDC server (its API on port 8301), as upstream's TiCDC control
 * does. Every call throws {@link PdClientException} when the server cannot be reached or answers
 * something that cannot be read; TiCDC's own answers (404: the version has no such API, 503: try
 * again) are results.
 */
public final class TicdcClient {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final PdHttp http;

  public TicdcClient(ComponentHttp httpClient, Duration requestTimeout) {
    this.http = new PdHttp(httpClient, requestTimeout);
  }

  public static TicdcClient create(PdClientOptions options) {
    return new TicdcClient(options.newHttpClient(), options.requestTimeout());
  }

  /** {@code GET /status}: the server's capture. */
  public record Status(String id, String version, boolean owner) {}

  /** One entry of {@code GET /api/v1/captures}. */
  public record Capture(String id, boolean owner, String address) {}

  /**
   * The captures the server knows: {@code Optional.empty()} when it answers 503 (retry later);
   * an empty list when it has no such API (404).
   */
  public record Captures(Optional<List<Capture>> list) {}

  /** The answer to a drain: tables still on the capture, or retry (503), or no drain API (404). */
  public record Drain(int tableCount, boolean retry, boolean unsupported) {}

  /** The answer to an owner resign: accepted, retry (503), or no resign API (404). */
  public enum Resign { ACCEPTED, RETRY, UNSUPPORTED }

  public Status status(URI base) {
    PdHttp.Response r = http.send(base, "GET", "/status", null);
    if (r.status() != 200) {
      throw r.unexpected();
    }
    JsonNode node = read(r);
    return new Status(node.path("id").asText(""), node.path("version").asText(""),
        node.path("is_owner").asBoolean(false));
  }

  public Captures captures(URI base) {
    PdHttp.Response r = http.send(base, "GET", "/api/v1/captures", null);
    if (r.status() == 404) {
      return new Captures(Optional.of(List.of()));
    }
    if (r.status() == 503) {
      return new Captures(Optional.empty());
    }
    if (r.status() != 200) {
      throw r.unexpected();
    }
    JsonNode node = read(r);
    if (!node.isArray()) {
      throw r.undecodable("a JSON array of captures");
    }
    List<Capture> out = new ArrayList<>();
    for (JsonNode c : node) {
      out.add(new Capture(c.path("id").asText(""), c.path("is_owner").asBoolean(false),
          c.path("address").asText("")));
    }
    return new Captures(Optional.of(out));
  }

  /** {@code PUT /api/v1/captures/drain {"capture_id": id}}. */
  public Drain drain(URI base, String captureId) {
    String body = JSON.createObjectNode().put("capture_id", captureId).toString();
    PdHttp.Response r = http.send(base, "PUT", "/api/v1/captures/drain", body);
    if (r.status() == 404) {
      return new Drain(0, false, true);
    }
    if (r.status() == 503) {
      return new Drain(0, true, false);
    }
    if (r.status() / 100 != 2) {
      throw r.unexpected();
    }
    return new Drain(read(r).path("current_table_count").asInt(0), false, false);
  }

  /** {@code POST /api/v1/owner/resign}. */
  public Resign resignOwner(URI base) {
    PdHttp.Response r = http.send(base, "POST", "/api/v1/owner/resign", null);
    if (r.status() == 404) {
      return Resign.UNSUPPORTED;
    }
    if (r.status() == 503) {
      return Resign.RETRY;
    }
    if (r.status() / 100 != 2) {
      throw r.unexpected();
    }
    return Resign.ACCEPTED;
  }

  /** {@code GET /api/v1/health}: false for 500; a server without the API (404) counts as healthy. */
  public boolean healthy(URI base) {
    PdHttp.Response r = http.send(base, "GET", "/api/v1/health", null);
    if (r.status() == 404 || r.status() / 100 == 2) {
      return true;
    }
    if (r.status() == 500) {
      return false;
    }
    throw r.unexpected();
  }

  private static JsonNode read(PdHttp.Response r) {
    try {
      JsonNode node = JSON.readTree(r.body());
      if (node == null) {
        throw r.undecodable("an empty body");
      }
      return node;
    } catch (IOException e) {
      throw r.undecodable("not JSON: " + e.getMessage());
    }
  }
}
