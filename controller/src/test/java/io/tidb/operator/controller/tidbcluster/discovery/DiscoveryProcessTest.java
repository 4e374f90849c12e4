package io.tidb.operator.controller.tidbcluster.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
import io.tidb.operator.pd.PdClient;
import io.tidb.operator.pd.PdClientOptions;
import java.util.Optional;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The discovery process wired as DiscoveryMain wires it, against a PD that serves GET members. */
class DiscoveryProcessTest {
  private static final String MEMBERS = """
      {"header":{"cluster_id":7372843513410154713},
       "members":[{"name":"basic-pd-0","member_id":13892733406154627210,
         "peer_urls":["http://basic-pd-0.basic-pd-peer.default.svc:2380"],
         "client_urls":["http://basic-pd-0.basic-pd-peer.default.svc:2379"],
         "deploy_path":"/","binary_version":"v8.5.7","git_hash":"abc"}],
       "leader":{"name":"basic-pd-0","member_id":13892733406154627210,
         "peer_urls":["http://basic-pd-0.basic-pd-peer.default.svc:2380"],
         "client_urls":["http://basic-pd-0.basic-pd-peer.default.svc:2379"]}}
      """;

  @Test
  void aScaledOutPodJoinsTheMembersPdReports() throws Exception {
    HttpServer pd = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    pd.createContext("/pd/api/v1/members", exchange -> {
      byte[] out = MEMBERS.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, out.length);
      try (OutputStream o = exchange.getResponseBody()) {
        o.write(out);
      }
    });
    pd.start();
    URI pdUrl = URI.create("http://127.0.0.1:" + pd.getAddress().getPort());
    PdClient client = PdClient.create(pdUrl, PdClientOptions.defaults());
    DiscoveryService service = new DiscoveryService(() -> BootstrapRulesTest.cluster("9", 3), view -> client.members().members());
    try (DiscoveryProcess process = DiscoveryProcess.start(new InetSocketAddress("127.0.0.1", 0),
        new InetSocketAddress("127.0.0.1", 0), pdUrl, () -> PdClientOptions.defaults().newHttpClient(), service,
        new DmDiscoveryService("default", () -> { throw new IllegalStateException("no DMCluster"); }, view -> List.of()),
        Optional.empty())) {
      String encoded = Base64.getEncoder().encodeToString(
          "basic-pd-1.basic-pd-peer.default.svc:2380".getBytes(StandardCharsets.UTF_8));
      HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + process.apiPort() + "/new/" + encoded)).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode(), r.body());
      assertEquals("--join=http://basic-pd-0.basic-pd-peer.default.svc:2379", r.body());
    } finally {
      pd.stop(0);
    }
  }
}
