package io.tidb.operator.controller.it;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.tidb.operator.controller.runtime.KubeApiRequestMetrics.RequestKind;
import java.util.ArrayList;
import java.util.List;

/**
 * Records every write request (create, update, patch, delete) a Kubernetes client sends, with its
 * path, so a test can assert exactly which objects the operator wrote.
 */
final class WriteRecorder implements Interceptor {

  /** One write: the verb and the URL path (no query). */
  record Write(String verb, String path) {
    boolean touches(String resource, String name) {
      return path.contains("/" + resource + "/" + name)
          || (verb.equals("create") && path.endsWith("/" + resource));
    }
  }

  private final List<Write> writes = new ArrayList<>();

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    RequestKind kind = RequestKind.of(request.method(), request.uri());
    if (kind.isWrite()) {
      synchronized (writes) {
        writes.add(new Write(kind.verb(), request.uri().getPath()));
      }
    }
  }

  List<Write> all() {
    synchronized (writes) {
      return List.copyOf(writes);
    }
  }

  /** Writes recorded after the first {@code from} ones. */
  List<Write> since(int from) {
    synchronized (writes) {
      return new ArrayList<>(writes.subList(from, writes.size()));
    }
  }

  int count() {
    synchronized (writes) {
      return writes.size();
    }
  }
}
