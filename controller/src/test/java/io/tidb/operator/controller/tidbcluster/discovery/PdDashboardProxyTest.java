package io.tidb.operator.controller.tidbcluster.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PdDashboardProxyTest {
  private final HttpClient http = HttpClient.newHttpClient();
  private final List<String> seen = new CopyOnWriteArrayList<>();
  private HttpServer pd;
  private PdDashboardProxy proxy;

  @BeforeEach
  void start() throws IOException {
    pd = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    pd.createContext("/", exchange -> {
      byte[] body = exchange.getRequestBody().readAllBytes();
      seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " x-test="
          + exchange.getRequestHeaders().getFirst("X-Test") + " body=" + new String(body, StandardCharsets.UTF_8));
      byte[] out = "dashboard says hi".getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("X-From", "pd");
      exchange.sendResponseHeaders(201, out.length);
      try (OutputStream o = exchange.getResponseBody()) {
        o.write(out);
      }
    });
    pd.start();
    proxy = PdDashboardProxy.start(new InetSocketAddress("127.0.0.1", 0),
        URI.create("http://127.0.0.1:" + pd.getAddress().getPort()));
  }

  @AfterEach
  void stop() {
    proxy.close();
    pd.stop(0);
  }

  private URI at(String path) {
    return URI.create("http://127.0.0.1:" + proxy.port() + path);
  }

  @Test
  void dashboardRequestsReachPdWithPathQueryHeadersAndBody() throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(at("/dashboard/api/info?x=1&y=%2F"))
        .header("X-Test", "abc").POST(HttpRequest.BodyPublishers.ofString("payload")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(201, r.statusCode());
    assertEquals("dashboard says hi", r.body());
    assertEquals("pd", r.headers().firstValue("x-from").orElseThrow());
    assertEquals(List.of("POST /dashboard/api/info?x=1&y=%2F x-test=abc body=payload"), seen);
  }

  @Test
  void otherPathsAreNotProxied() throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(at("/pd/api/v1/members")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(404, r.statusCode());
    assertEquals(List.of(), seen);
  }

  @Test
  void unreachablePdIs502() throws Exception {
    int free;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
      free = s.getLocalPort();
    }
    try (PdDashboardProxy dead = PdDashboardProxy.start(new InetSocketAddress("127.0.0.1", 0),
        URI.create("http://127.0.0.1:" + free))) {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + dead.port() + "/dashboard/")).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(502, r.statusCode());
      assertTrue(r.body().startsWith("PD at http://127.0.0.1:" + free + " is not reachable"), r.body());
    }
  }
}
