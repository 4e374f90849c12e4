package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.tidb.operator.controller.runtime.KubeApiRequestMetrics.RequestKind;
import java.net.URI;
import org.junit.jupiter.api.Test;

class KubeApiRequestMetricsTest {

  private static RequestKind kind(String method, String url) {
    return RequestKind.of(method, URI.create("https://127.0.0.1:6443" + url));
  }

  @Test
  void verbsFollowMethodsAndWatchQuery() {
    assertEquals(
        new RequestKind("patch", "statefulsets"),
        kind("PATCH", "/apis/apps/v1/namespaces/db/statefulsets/basic-pd?fieldManager=x"));
    assertEquals(
        new RequestKind("watch", "pods"),
        kind("GET", "/api/v1/pods?labelSelector=a%3Db&watch=true&resourceVersion=5"));
    assertEquals(new RequestKind("get", "pods"), kind("GET", "/api/v1/namespaces/db/pods"));
    assertEquals(new RequestKind("create", "events"), kind("POST", "/api/v1/namespaces/db/events"));
    assertEquals(
        new RequestKind("delete", "leases"),
        kind("DELETE", "/apis/coordination.k8s.io/v1/namespaces/op/leases/l"));
  }

  @Test
  void subresourcesAreNamed() {
    assertEquals(
        new RequestKind("patch", "tidbclusters/status"),
        kind("PATCH", "/apis/pingcap.com/v1alpha1/namespaces/db/tidbclusters/basic/status"));
  }

  @Test
  void namespacesAndUnknownPaths() {
    assertEquals(new RequestKind("get", "namespaces"), kind("GET", "/api/v1/namespaces/db"));
    assertEquals(new RequestKind("get", "other"), kind("GET", "/version"));
  }

  @Test
  void writesAreCreateUpdatePatchDelete() {
    assertTrue(new RequestKind("patch", "x").isWrite());
    assertTrue(new RequestKind("create", "x").isWrite());
    assertFalse(new RequestKind("watch", "x").isWrite());
    assertFalse(new RequestKind("get", "x").isWrite());
  }

  @Test
  void watchesAreToldFromReads() {
    assertTrue(RequestKind.isWatch(get("https://127.0.0.1/api/v1/pods?watch=true&resourceVersion=1")));
    assertFalse(RequestKind.isWatch(get("https://127.0.0.1/api/v1/pods?resourceVersion=1")));
  }

  private static HttpRequest get(String uri) {
    return new StandardHttpRequest.Builder().uri(URI.create(uri)).build();
  }
}
