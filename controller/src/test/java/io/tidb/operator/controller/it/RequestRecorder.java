package io.tidb.operator.controller.it;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.tidb.operator.controller.runtime.KubeApiRequestMetrics.RequestKind;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Records every request of some kinds a Kubernetes client sends, with its verb and path: {@link
 * #writes()} (create, update, patch, delete), so a test can assert exactly which objects the
 * operator wrote, or {@link #reads()} (GET and LIST, not WATCH), so it can assert what the
 * operator read from the API server rather than its informers.
 */
final class RequestRecorder implements Interceptor {

  /** One request: the verb and the URL path (no query). */
  record Request(String verb, String path) {
    boolean touches(String resource, String name) {
      return path.contains("/" + resource + "/" + name)
          || (verb.equals("create") && path.endsWith("/" + resource));
    }
  }

  private final List<Request> requests = new ArrayList<>();
  private final Predicate<RequestKind> recorded;

  private RequestRecorder(Predicate<RequestKind> recorded) {
    this.recorded = recorded;
  }

  /** A recorder of create, update, patch and delete requests. */
  static RequestRecorder writes() {
    return new RequestRecorder(RequestKind::isWrite);
  }

  /** A recorder of GET and LIST requests (not WATCH). */
  static RequestRecorder reads() {
    return new RequestRecorder(k -> k.verb().equals("get"));
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    RequestKind kind = RequestKind.of(request.method(), request.uri());
    if (recorded.test(kind)) {
      synchronized (requests) {
        requests.add(new Request(kind.verb(), request.uri().getPath()));
      }
    }
  }

  List<Request> all() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  /** Requests recorded after the first {@code from} ones. */
  List<Request> since(int from) {
    synchronized (requests) {
      return new ArrayList<>(requests.subList(from, requests.size()));
    }
  }

  int count() {
    synchronized (requests) {
      return requests.size();
    }
  }
}
