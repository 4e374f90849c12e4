package io.tidb.operator.controller.tidbcluster.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.certs.ServingCertificate;
import io.tidb.operator.controller.fixtures.TestCertificates;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterClientCertificateTest {

  private static final String SECRET = "basic-cluster-client-secret";
  private final TestCertificates certs = TestCertificates.newCa("test-ca");
  private final ServingCertificate client = certs.peer(List.of("basic-client"));

  @Test
  void upstreamsSecretNameAndLayoutDecode() {
    assertEquals(SECRET, ClusterClientCertificate.secretName("basic"));
    ClusterClientCertificate.Decoded d =
        ClusterClientCertificate.decode(SECRET, certs.secretData(client), Instant.now());
    assertTrue(d.valid(), d.problems().toString());
    assertEquals(client.certificate(), d.certificate().chain().get(0));
    assertEquals(certs.ca().certificate(), d.certificate().ca().get(0));
  }

  @Test
  void everyMissingKeyIsNamedAtOnce() {
    ClusterClientCertificate.Decoded d =
        ClusterClientCertificate.decode(SECRET, Map.of(), Instant.now());
    assertFalse(d.valid());
    assertEquals(List.of(
        "Secret basic-cluster-client-secret has no key ca.crt",
        "Secret basic-cluster-client-secret has no key tls.crt",
        "Secret basic-cluster-client-secret has no key tls.key"), d.problems());
  }

  @Test
  void notPemAndAForeignKeyAreProblems() {
    Map<String, String> data = new HashMap<>(certs.secretData(client));
    data.put("ca.crt", TestCertificates.base64("not a certificate"));
    data.put("tls.key", certs.secretData(certs.peer(List.of("other"))).get("tls.key"));
    List<String> problems =
        ClusterClientCertificate.decode(SECRET, data, Instant.now()).problems();
    assertEquals(2, problems.size(), problems.toString());
    assertTrue(problems.get(0).startsWith(
        "Secret basic-cluster-client-secret key ca.crt is not PEM certificates"), problems.get(0));
    assertTrue(problems.get(1).startsWith(
        "Secret basic-cluster-client-secret key tls.key is not the private key of the certificate"),
        problems.get(1));
  }

  @Test
  void anExpiredCertificateIsAProblem() {
    List<String> problems = ClusterClientCertificate.decode(
        SECRET, certs.secretData(client), Instant.now().plus(Duration.ofDays(2))).problems();
    assertEquals(1, problems.size());
    assertTrue(problems.get(0).contains("key tls.crt: the certificate CN=basic-client"),
        problems.get(0));
    assertTrue(problems.get(0).contains("expired at"), problems.get(0));
  }

  @Test
  void theFingerprintFollowsTheContent() {
    String first = ClusterClientCertificate.decode(SECRET, certs.secretData(client), Instant.now())
        .certificate().fingerprint();
    String same = ClusterClientCertificate.decode(SECRET, certs.secretData(client), Instant.now())
        .certificate().fingerprint();
    String rotated = ClusterClientCertificate.decode(SECRET,
        certs.secretData(certs.peer(List.of("basic-client"))), Instant.now()).certificate()
        .fingerprint();
    assertEquals(first, same);
    assertNotEquals(first, rotated);
  }
}
