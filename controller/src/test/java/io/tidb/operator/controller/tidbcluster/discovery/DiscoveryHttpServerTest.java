package io.tidb.operator.controller.tidbcluster.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.dmapi.DmMasterInfo;
import io.tidb.operator.pd.PdMemberInfo;
import java.util.Optional;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DiscoveryHttpServerTest {
  private final HttpClient http = HttpClient.newHttpClient();
  private DiscoveryHttpServer server;
  private volatile List<PdMemberInfo> members = List.of();

  @BeforeEach
  void start() throws IOException {
    DiscoveryService service = new DiscoveryService(() -> BootstrapRulesTest.cluster("7", 2), view -> {
      if (members.isEmpty()) {
        throw new IOException("connection refused");
      }
      return members;
    });
    server = DiscoveryHttpServer.start(new InetSocketAddress("127.0.0.1", 0), service, dmService(),
        Optional.empty());
  }

  private volatile List<DmMasterInfo> masters = List.of();

  private DmDiscoveryService dmService() {
    return new DmDiscoveryService("default",
        () -> new DmBootstrapRules.DmClusterView("basic", "default", "5", 2, "http"),
        view -> {
          if (masters.isEmpty()) {
            throw new IOException("connection refused");
          }
          return masters;
        });
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String b64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void newAnswersWithStartArgumentsAsPlainText() throws Exception {
    HttpResponse<String> first = get("/new/" + b64("basic-pd-0.basic-pd-peer.default.svc:2380\n"));
    assertEquals(503, first.statusCode(), first.body());
    assertTrue(first.body().startsWith("cannot list PD members of cluster default/basic"), first.body());
    HttpResponse<String> second = get("/new/" + b64("basic-pd-1.basic-pd-peer.default.svc:2380"));
    assertEquals(200, second.statusCode(), second.body());
    assertEquals("--initial-cluster=basic-pd-1=http://basic-pd-1.basic-pd-peer.default.svc:2380", second.body());
    assertEquals("text/plain; charset=utf-8", second.headers().firstValue("content-type").orElseThrow());
    members = List.of(BootstrapRulesTest.member("basic-pd-1", "http://basic-pd-1.basic-pd-peer.default.svc:2380",
        "http://basic-pd-1.basic-pd-peer.default.svc:2379"));
    HttpResponse<String> retry = get("/new/" + b64("basic-pd-0.basic-pd-peer.default.svc:2380\n"));
    assertEquals(200, retry.statusCode(), retry.body());
    assertEquals("--join=http://basic-pd-1.basic-pd-peer.default.svc:2379", retry.body());
  }

  @Test
  void dmRegisterTypeAnswersDmMasterStartArguments() throws Exception {
    HttpResponse<String> first = get("/new/" + b64("basic-dm-master-0.basic-dm-master-peer:8291\n") + "/dm");
    assertEquals(503, first.statusCode(), first.body());
    assertTrue(first.body().startsWith("cannot list the dm-master members of DMCluster default/basic"), first.body());
    HttpResponse<String> second = get("/new/" + b64("basic-dm-master-1.basic-dm-master-peer:8291") + "/dm");
    assertEquals(200, second.statusCode(), second.body());
    assertEquals("--initial-cluster=basic-dm-master-1=http://basic-dm-master-1.basic-dm-master-peer:8291",
        second.body());
    masters = List.of(new DmMasterInfo("basic-dm-master-1", "1", true,
        List.of("http://basic-dm-master-1.basic-dm-master-peer:8291"), List.of()));
    HttpResponse<String> retry = get("/new/" + b64("basic-dm-master-0.basic-dm-master-peer:8291") + "/dm");
    assertEquals(200, retry.statusCode(), retry.body());
    assertEquals("--join=http://basic-dm-master-1.basic-dm-master-peer:8261", retry.body());
    HttpResponse<String> pd = get("/new/" + b64("basic-dm-master-0.basic-dm-master-peer:8291") + "/pd");
    assertEquals(400, pd.statusCode(), "the pd register type goes to PD's rules: " + pd.body());
  }

  @Test
  void base64WithSlashesAndUrlSafeAlphabetIsAccepted() throws Exception {
    // This host encodes to text containing '/' in the standard alphabet.
    String host = "basic-pd-1.basic-pd-peer.default.svc:2380??>";
    String std = b64(host);
    assertTrue(std.contains("/"), std);
    assertEquals(host, DiscoveryHttpServer.decode(std));
    assertEquals(host, DiscoveryHttpServer.decode(Base64.getUrlEncoder().withoutPadding().encodeToString(
        host.getBytes(StandardCharsets.UTF_8))));
    assertEquals(400, get("/new/" + std).statusCode(), "decoded, then refused as a malformed peer URL, not a 404");
  }

  @Test
  void badInputIs400() throws Exception {
    HttpResponse<String> notBase64 = get("/new/%25%25%25");
    assertEquals(400, notBase64.statusCode());
    assertTrue(notBase64.body().contains("is not base64"), notBase64.body());
    HttpResponse<String> otherCluster = get("/new/" + b64("x-pd-0.x-pd-peer.default.svc:2380"));
    assertEquals(400, otherCluster.statusCode());
    assertTrue(otherCluster.body().contains("is not a PD pod of cluster default/basic"), otherCluster.body());
  }

  @Test
  void verifyAnswersWithTheAskedUrl() throws Exception {
    HttpResponse<String> r = get("/verify/" + b64("basic-pd:2379\n"));
    assertEquals(200, r.statusCode());
    assertEquals("basic-pd:2379", r.body());
  }

  @Test
  void healthzUnknownPathsAndMethods() throws Exception {
    assertEquals("ok", get("/healthz").body());
    assertEquals(404, get("/other").statusCode());
    HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/healthz"))
        .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(405, post.statusCode());
  }
}
