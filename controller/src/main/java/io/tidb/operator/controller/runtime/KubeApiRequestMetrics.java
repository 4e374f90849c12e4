package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.util.List;
import java.util.Locale;

/**
 * Counts every request the operator's Kubernetes client sends, by verb and resource, as the
 * Prometheus counter {@code tidb_operator_kube_api_requests_total{verb,resource}}. Installed as a
 * fabric8 HTTP {@link Interceptor}; it only observes.
 */
public final class KubeApiRequestMetrics implements Interceptor {

  /** The interceptor's name on the fabric8 HTTP client builder. */
  public static final String NAME = "tidb-operator-request-metrics";

  public static final String METER = "tidb.operator.kube.api.requests";

  private final MeterRegistry registry;

  public KubeApiRequestMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    RequestKind kind = RequestKind.of(request.method(), request.uri());
    Counter.builder(METER)
        .description("Requests sent to the Kubernetes API server")
        .tag("verb", kind.verb())
        .tag("resource", kind.resource())
        .register(registry)
        .increment();
  }

  /**
   * The Kubernetes verb and resource of a request, e.g. {@code patch statefulsets} or {@code watch
   * pods}.
   */
  public record RequestKind(String verb, String resource) {

    private static final List<String> WRITE_VERBS = List.of("create", "update", "patch", "delete");

    public static RequestKind of(String method, URI uri) {
      String query = uri.getRawQuery() == null ? "" : uri.getRawQuery();
      String resource = resourceOf(uri.getPath());
      String verb =
          switch (method.toUpperCase(Locale.ROOT)) {
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> "delete";
            default -> query.contains("watch=true") ? "watch" : "get";
          };
      return new RequestKind(verb, resource);
    }

    public boolean isWrite() {
      return WRITE_VERBS.contains(verb);
    }

    /**
     * Whether {@code request} is a watch: a long-lived stream rather than one request's load (the
     * rate limit lets it pass), whose body fabric8 splits into events ({@link AsciiWatchBodies}).
     */
    public static boolean isWatch(HttpRequest request) {
      return "watch".equals(of(request.method(), request.uri()).verb());
    }

    /**
     * The resource plural, with the subresource after a slash: {@code /api/v1/namespaces/a/pods}
     * is {@code pods}, {@code /apis/pingcap.com/v1alpha1/namespaces/a/tidbclusters/b/status} is
     * {@code tidbclusters/status}.
     */
    static String resourceOf(String path) {
      String[] parts = path.replaceAll("^/+", "").split("/");
      int start;
      if (parts.length > 0 && parts[0].equals("api")) {
        start = 2;
      } else if (parts.length > 0 && parts[0].equals("apis")) {
        start = 3;
      } else {
        return "other";
      }
      if (parts.length > start + 1 && parts[start].equals("namespaces")) {
        start += 2;
        if (parts.length <= start) {
          return "namespaces";
        }
      }
      if (parts.length <= start) {
        return "other";
      }
      String resource = parts[start];
      return parts.length > start + 2 ? resource + "/" + parts[start + 2] : resource;
    }
  }
}
