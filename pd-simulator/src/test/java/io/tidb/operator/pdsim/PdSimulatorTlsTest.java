package io.tidb.operator.pdsim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.certs.CertificateAuthority;
import io.tidb.operator.certs.CertificateIssuer;
import io.tidb.operator.certs.KeyAlgorithm;
import io.tidb.operator.certs.MutualTls;
import io.tidb.operator.certs.ServingCertificate;
import io.tidb.operator.certs.ServingNames;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The simulator with cluster TLS: HTTPS only, a client certificate from its CA required, its own
 * certificate naming the PD Service; every way a client can get TLS wrong fails.
 */
class PdSimulatorTlsTest {

  private static final ClusterKey KEY = new ClusterKey("ns1", "basic");
  private static final CertificateIssuer ISSUER = new CertificateIssuer();
  private static final Instant NOW = Instant.now();
  private static final Duration DAY = Duration.ofDays(1);

  private CertificateAuthority ca;
  private PdSimulatorServer server;

  @BeforeEach
  void start() throws IOException {
    ca = ISSUER.newAuthority("test-ca", NOW, DAY, KeyAlgorithm.EC_P256);
    ServingCertificate serving = peer(ca, List.of("basic-pd", "basic-pd.ns1",
        "basic-pd.ns1.svc", "*.basic-pd-peer.ns1.svc"));
    server = PdSimulatorServer.startTls(new SimulatedClusters(),
        new InetSocketAddress("127.0.0.1", 0),
        MutualTls.server(List.of(ca.certificate()), List.of(serving.certificate()),
            serving.privateKey()));
    server.pd(KEY).addMember("basic-pd-0");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static ServingCertificate peer(CertificateAuthority ca, List<String> names) {
    return ISSUER.issuePeer(ca, new ServingNames(names, List.of()), NOW, DAY, KeyAlgorithm.EC_P256);
  }

  private SSLContext client(CertificateAuthority trusted, ServingCertificate cert, String host) {
    return MutualTls.client(List.of(trusted.certificate()), List.of(cert.certificate()),
        cert.privateKey(), host);
  }

  private HttpResponse<String> health(HttpClient http, URI base) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(base + "/clusters/ns1/basic/pd/api/v1/health"))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpClient https(SSLContext context) {
    return HttpClient.newBuilder().sslContext(context).build();
  }

  @Test
  void answersAMutualTlsClientAndRecordsItsCertificate() throws Exception {
    assertTrue(server.tls());
    assertEquals("https", server.baseUrl().getScheme());
    ServingCertificate operator = peer(ca, List.of("operator"));
    HttpResponse<String> response =
        health(https(client(ca, operator, "basic-pd.ns1")), server.baseUrl());
    assertEquals(200, response.statusCode(), response.body());
    assertEquals(List.of(operator.certificate()), server.clientCertificates());
  }

  @Test
  void aPlaintextCallFails() {
    URI plain = URI.create("http://127.0.0.1:" + server.port());
    assertThrows(IOException.class, () -> health(HttpClient.newHttpClient(), plain));
    assertEquals(List.of(), server.calls());
  }

  @Test
  void aClientWithoutCertificateIsRefused() throws Exception {
    SSLContext trustOnly = SSLContext.getInstance("TLS");
    trustOnly.init(null, new javax.net.ssl.TrustManager[] {
        new io.tidb.operator.certs.ServiceNameTrustManager(List.of(ca.certificate()), "basic-pd.ns1")},
        null);
    assertThrows(IOException.class, () -> health(https(trustOnly), server.baseUrl()));
    assertEquals(List.of(), server.calls());
  }

  @Test
  void aClientCertificateFromAnotherCaIsRefused() {
    CertificateAuthority other = ISSUER.newAuthority("other-ca", NOW, DAY, KeyAlgorithm.EC_P256);
    ServingCertificate stranger = peer(other, List.of("stranger"));
    assertThrows(IOException.class,
        () -> health(https(client(ca, stranger, "basic-pd.ns1")), server.baseUrl()));
    assertEquals(List.of(), server.calls());
  }

  @Test
  void aClientTrustingAnotherCaRefusesTheServer() {
    CertificateAuthority other = ISSUER.newAuthority("other-ca", NOW, DAY, KeyAlgorithm.EC_P256);
    ServingCertificate operator = peer(ca, List.of("operator"));
    assertThrows(IOException.class,
        () -> health(https(client(other, operator, "basic-pd.ns1")), server.baseUrl()));
    assertEquals(List.of(), server.calls());
  }

  @Test
  void aServerCertificateForAnotherServiceIsRefusedWhateverTheAddress() {
    ServingCertificate operator = peer(ca, List.of("operator"));
    IOException e = assertThrows(IOException.class,
        () -> health(https(client(ca, operator, "other-pd.ns1")), server.baseUrl()));
    assertTrue(String.valueOf(rootMessage(e)).contains("not valid for other-pd.ns1"), rootMessage(e));
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t.getMessage();
  }
}
