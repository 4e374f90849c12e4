package io.tidb.operator.pdsim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.certs.MutualTls;
import io.tidb.operator.certs.Pem;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local TLS run's certificates: the standalone simulator serving {@code --tls-dir server/}
 * answers a client presenting {@code client/} that checks each component's Service name, and
 * refuses a plaintext call.
 */
class LocalTlsCertificatesTest {

  @TempDir Path dir;

  private static SSLContext client(Path dir, String host) throws IOException {
    return MutualTls.client(Pem.decodeCertificates(Files.readString(dir.resolve("ca.crt"))),
        Pem.decodeCertificates(Files.readString(dir.resolve("tls.crt"))),
        Pem.decodePrivateKey(Files.readString(dir.resolve("tls.key"))), host);
  }

  private static int get(SSLContext tls, URI url) throws Exception {
    HttpClient http = tls == null ? HttpClient.newHttpClient()
        : HttpClient.newBuilder().sslContext(tls).build();
    return http.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString()).statusCode();
  }

  @Test
  void theSimulatorServesTheClusterOverMutualTlsWithThem() throws Exception {
    LocalTlsCertificates.write(dir, "basic-tls", "tidb-cluster", "TiDB", Instant.now());
    try (PdSimulatorServer server = PdSimulatorServer.startTls(new SimulatedClusters(),
        new InetSocketAddress("127.0.0.1", 0), PdSimulatorMain.tls(dir.resolve("server")))) {
      ClusterKey key = new ClusterKey("tidb-cluster", "basic-tls");
      server.pd(key).addMember("basic-tls-pd-0");
      URI health = URI.create(server.pdUrl(key) + "/pd/api/v1/health");
      for (String host : List.of("basic-tls-pd.tidb-cluster", "basic-tls-tidb.tidb-cluster",
          "basic-tls-ticdc-peer.tidb-cluster")) {
        assertEquals(200, get(client(dir.resolve("client"), host), health), host);
      }
      assertThrows(IOException.class,
          () -> get(client(dir.resolve("client"), "other-pd.tidb-cluster"), health),
          "the certificate names this cluster's Services only");
      URI plain = URI.create(health.toString().replace("https://", "http://"));
      assertThrows(IOException.class, () -> get(null, plain), "no plaintext");
      assertTrue(server.clientCertificates().stream().allMatch(c ->
          c.getSubjectX500Principal().getName().contains("CN=TiDB")), "the client certificate's CN");
    }
  }
}
