package io.tidb.operator.pd;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the operator asks one TiProxy server on its API port (3080), as upstream's TiProxy
 * control does through TiProxy's own CLI: {@code GET /api/debug/health} and {@code PUT
 * /api/admin/config/} with a TOML document. Every call throws {@link PdClientException} when the
 * server cannot be reached or answers anything but success.
 */
public final class TiproxyClient {

  static final String HEALTH = "/api/debug/health";
  static final String CONFIG = "/api/admin/config/";

  private final PdHttp http;

  public TiproxyClient(ComponentHttp httpClient, Duration requestTimeout) {
    this.http = new PdHttp(httpClient, requestTimeout);
  }

  /** {@code GET /api/debug/health}: the server's answer (its config checksum), when healthy. */
  public String health(URI base) {
    PdHttp.Response r = http.send(base, "GET", HEALTH, null);
    if (r.status() != 200) {
      throw r.unexpected();
    }
    return r.body() == null ? "" : r.body().strip();
  }

  /** {@code PUT /api/admin/config/} with {@code [labels]} set to {@code labels}. */
  public void setLabels(URI base, Map<String, String> labels) {
    PdHttp.Response r = http.send(base, "PUT", CONFIG, labelsToml(labels));
    if (r.status() / 100 != 2) {
      throw r.unexpected();
    }
  }

  /** The TOML document upstream sends: one {@code [labels]} table, keys sorted, values quoted. */
  static String labelsToml(Map<String, String> labels) {
    StringBuilder out = new StringBuilder("[labels]\n");
    new TreeMap<>(labels).forEach((k, v) ->
        out.append(quote(k)).append(" = ").append(quote(v)).append('\n'));
    return out.toString();
  }

  private static String quote(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\t' -> out.append("\\t");
        default -> out.append(c);
      }
    }
    return out.append('"').toString();
  }
}
