package io.tidb.operator.pdsim;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ArrayList;

/**
 * One HTTP request to a simulated server, with the path relative to that server (e.g. {@code
 * /pd/api/v1/stores}).
 *
 * @param query decoded query parameters; a key given without value maps to an empty string
 */
public record SimRequest(
    String method, String path, Map<String, List<String>> query, String body) {

  public SimRequest {
    query = Map.copyOf(query);
    body = body == null ? "" : body;
  }

  public static SimRequest of(String method, String pathAndQuery, String body) {
    int mark = pathAndQuery.indexOf('?');
    String path = mark < 0 ? pathAndQuery : pathAndQuery.substring(0, mark);
    String rawQuery = mark < 0 ? null : pathAndQuery.substring(mark + 1);
    return new SimRequest(method, path, parseQuery(rawQuery), body);
  }

  static Map<String, List<String>> parseQuery(String rawQuery) {
    Map<String, List<String>> query = new LinkedHashMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return query;
    }
    for (String pair : rawQuery.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String key = decode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      query.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
    }
    query.replaceAll((k, v) -> List.copyOf(v));
    return query;
  }

  private static String decode(String text) {
    return URLDecoder.decode(text, StandardCharsets.UTF_8);
  }

  public boolean hasParam(String name) {
    return query.containsKey(name);
  }

  public String param(String name) {
    List<String> values = query.get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }
}
