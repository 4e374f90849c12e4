package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializer;
import io.tidb.operator.certs.Pem;
import io.tidb.operator.certs.ServingCertificate;
import io.tidb.operator.controller.fixtures.TestCertificates;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithKubeApiServer;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The initializer against a TiDB with {@code spec.tidb.tlsClient}: a second loopback MariaDB
 * ({@code hack/mariadb.sh} with {@code TIDB_OPERATOR_MARIADB_TLS_DIR}) serving TLS only with a
 * certificate from a CA this test makes, root requiring a client certificate ({@code REQUIRE
 * X509}). The Job's container runs as a process with its Secret volume written at its mount
 * path; it connects with TLS, presents the client certificate and verifies the server; with
 * another CA in the Secret it fails at once and says why.
 */
@WithKubeApiServer
class InitializerTlsIT {

  @TempDir static Path tmp;

  private static final TestCertificates CA = TestCertificates.newCa("tidb-tls-it-ca");
  private static LoopbackMariaDb db;
  private static InitializerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) throws Exception {
    Path tls = Files.createDirectories(tmp.resolve("server-tls"));
    ServingCertificate server = CA.peer(List.of("tidb-server"));
    Files.writeString(tls.resolve("ca.crt"), Pem.encodeCertificate(CA.ca().certificate()));
    Files.writeString(tls.resolve("tls.crt"), Pem.encodeCertificate(server.certificate()));
    Files.writeString(tls.resolve("tls.key"), Pem.encodePrivateKey(server.privateKey()));
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    db = LoopbackMariaDb.startTls(tmp.resolve("mariadb"), port, tls);
    h = new InitializerHarness(access, "init-tls", db);
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
    if (db != null) {
      db.stop();
    }
  }

  private static void createTlsCluster(String name) {
    TidbCluster tc = ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbCluster
        metadata: {name: %s}
        spec:
          version: v8.5.7
          pd: {baseImage: pingcap/pd, replicas: 1, requests: {storage: 1Gi}}
          tikv: {baseImage: pingcap/tikv, replicas: 1, requests: {storage: 1Gi}}
          tidb: {baseImage: pingcap/tidb, replicas: 1, service: {type: ClusterIP}, tlsClient: {enabled: true}}
        """.formatted(name), TidbCluster.class);
    tc.getMetadata().setNamespace(h.namespace);
    h.admin.resource(tc).create();
    h.setTidbHealth(name, true);
  }

  private static void createClientSecret(String cluster, TestCertificates trusted) {
    ServingCertificate client = CA.peer(List.of("TiDB"));
    h.createSecret(cluster + "-tidb-client-secret", Map.of(
        "ca.crt", Pem.encodeCertificate(trusted.ca().certificate()),
        "tls.crt", Pem.encodeCertificate(client.certificate()),
        "tls.key", Pem.encodePrivateKey(client.privateKey())));
  }

  private static void createInitializer(String name) {
    h.createInitializer("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbInitializer
        metadata: {name: %1$s}
        spec:
          image: tnir/mysqlclient
          cluster: {name: %1$s}
          passwordSecret: %1$s-secret
          initSql: "create database tls_hello;"
        """.formatted(name));
  }

  @Test
  void connectsWithTlsPresentingTheClientCertificateAndVerifyingTheCa() throws Exception {
    db.resetAsNewTidb(List.of(), List.of("tls_hello"));
    // The same login is refused in plaintext and accepted over TLS: the server is TLS-only.
    assertThrows(SQLException.class, () -> DriverManager.getConnection(
        "jdbc:mariadb://127.0.0.1:" + db.port + "/", "root", "").close());
    DriverManager.getConnection(
        "jdbc:mariadb://127.0.0.1:" + db.port + "/?sslMode=trust", "root", "").close();
    try (Connection admin = db.admin(); Statement st = admin.createStatement()) {
      st.execute("ALTER USER 'root'@'%' REQUIRE X509");
    }

    createTlsCluster("tls-demo");
    createClientSecret("tls-demo", CA);
    h.createSecret("tls-demo-secret", Map.of("root", "tls-r00t"));
    createInitializer("tls-demo");
    Job job = h.awaitJob("tls-demo");
    List<String> args = job.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs();
    assertEquals(List.of("--tls-ca", "/var/lib/tidb-client-tls/ca.crt",
        "--tls-cert", "/var/lib/tidb-client-tls/tls.crt", "--tls-key", "/var/lib/tidb-client-tls/tls.key"),
        args.subList(5, args.size()));

    JobAsKubelet.Run run = h.kubelet.runAndReport(job);
    assertEquals(0, run.exitCode(), run.output());
    TidbInitializer done = h.awaitInitializer("tls-demo", "phase Completed",
        ti -> "Completed".equals(ti.getStatus().getPhase()));
    assertEquals("Completed", done.getStatus().getPhase());
    try (Connection admin = db.admin(); Statement st = admin.createStatement()) {
      try (ResultSet rs = st.executeQuery("show databases like 'tls_hello'")) {
        assertTrue(rs.next(), "the init SQL ran over the TLS connection of root, which requires X509");
      }
      try (ResultSet rs = st.executeQuery(
          "select authentication_string from mysql.user where user = 'root' and host = '%'")) {
        assertTrue(rs.next());
        assertNotEquals("", rs.getString(1), "root's password is set");
      }
    }
  }

  @Test
  void aSecretWithAnotherCaFailsAtOnceNamingTheTlsProblem() throws Exception {
    db.resetAsNewTidb(List.of(), List.of("tls_hello"));
    createTlsCluster("tls-wrong");
    createClientSecret("tls-wrong", TestCertificates.newCa("another-ca"));
    h.createSecret("tls-wrong-secret", Map.of("root", "tls-r00t"));
    createInitializer("tls-wrong");
    Job job = h.awaitJob("tls-wrong");

    long started = System.nanoTime();
    JobAsKubelet.Run run = h.kubelet.runAndReport(job);
    assertNotEquals(0, run.exitCode(), run.output());
    assertTrue((System.nanoTime() - started) / 1_000_000_000 < 60, "it does not wait for TiDB");
    assertTrue(run.output().contains("initialization failed: TLS with TiDB at 127.0.0.1:" + db.port
        + " failed"), run.output());
    h.awaitInitializer("tls-wrong", "phase Failed", ti -> "Failed".equals(ti.getStatus().getPhase()));
    try (Connection admin = db.admin(); Statement st = admin.createStatement();
        ResultSet rs = st.executeQuery("show databases like 'tls_hello'")) {
      assertTrue(!rs.next(), "nothing ran");
    }
  }
}
