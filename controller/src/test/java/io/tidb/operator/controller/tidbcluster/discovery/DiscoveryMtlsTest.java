package io.tidb.operator.controller.tidbcluster.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.certs.MutualTls;
import io.tidb.operator.certs.ServingCertificate;
import io.tidb.operator.controller.fixtures.TestCertificates;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The discovery API with {@code enableDiscoveryMTLS}: served over HTTPS from the mounted
 * {@code <tc>-discovery-cluster-secret}, answering only clients whose certificate its CA issued.
 */
class DiscoveryMtlsTest {

  private static final String HOST = "basic-discovery.ns";

  @TempDir Path dir;
  private final TestCertificates ca = TestCertificates.newCa("discovery-mtls-ca");
  private DiscoveryHttpServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private void mount(TestCertificates issuer, ServingCertificate cert) throws IOException {
    for (Map.Entry<String, String> e : issuer.secretData(cert).entrySet()) {
      Files.write(dir.resolve(e.getKey()), Base64.getDecoder().decode(e.getValue()));
    }
  }

  private void serve() throws IOException {
    mount(ca, ca.peer(List.of(HOST, "127.0.0.1")));
    DiscoveryService service = new DiscoveryService(() -> BootstrapRulesTest.cluster("7", 1),
        view -> List.of());
    server = DiscoveryHttpServer.start(new InetSocketAddress("127.0.0.1", 0), service,
        new DmDiscoveryService("default", () -> {
          throw new IllegalStateException("no DMCluster");
        }, view -> List.of()),
        Optional.of(DiscoveryMain.apiTls(dir)));
  }

  private HttpResponse<String> get(SSLContext tls, String scheme) throws Exception {
    HttpClient client = tls == null ? HttpClient.newHttpClient()
        : HttpClient.newBuilder().sslContext(tls).build();
    return client.send(HttpRequest.newBuilder(
            URI.create(scheme + "://127.0.0.1:" + server.port() + "/healthz")).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static SSLContext client(TestCertificates issuer, TestCertificates trusted) {
    ServingCertificate cert = issuer.peer(List.of("pd"));
    return MutualTls.client(List.of(trusted.ca().certificate()), List.of(cert.certificate()),
        cert.privateKey(), HOST);
  }

  @Test
  void answersAClientPresentingACertificateOfItsCa() throws Exception {
    serve();
    HttpResponse<String> r = get(client(ca, ca), "https");
    assertEquals(200, r.statusCode());
    assertEquals("ok", r.body());
  }

  @Test
  void refusesAClientWithoutACertificateOrWithOneOfAnotherCa() throws Exception {
    serve();
    TestCertificates other = TestCertificates.newCa("other-ca");
    assertThrows(IOException.class, () -> get(client(other, ca), "https"),
        "a client certificate of another CA");
    SSLContext noCertificate = SSLContext.getInstance("TLS");
    noCertificate.init(null, new javax.net.ssl.TrustManager[] {
        new io.tidb.operator.certs.ServiceNameTrustManager(List.of(ca.ca().certificate()), HOST)},
        null);
    assertThrows(IOException.class, () -> get(noCertificate, "https"), "no client certificate");
    assertThrows(IOException.class, () -> get(null, "http"), "plain HTTP");
  }

  @Test
  void aMissingFileIsNamed() throws Exception {
    mount(ca, ca.peer(List.of(HOST)));
    Files.delete(dir.resolve("tls.key"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DiscoveryMain.apiTls(dir));
    assertTrue(e.getMessage().startsWith(dir.resolve("tls.key") + " cannot be read"), e.getMessage());
  }
}
