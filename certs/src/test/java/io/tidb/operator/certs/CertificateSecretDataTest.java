package io.tidb.operator.certs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CertificateSecretDataTest {

  private static final Instant T0 = CertificateFixtures.T0;
  private static final RenewalPolicy POLICY = CertificateFixtures.POLICY;
  private static final ServingNames NAMES = CertificateFixtures.NAMES;
  private final CertificateRenewer renewer = new CertificateRenewer(new CertificateIssuer(), "ca");

  @Test
  void roundTripKeepsCurrentAndPreviousCas() throws Exception {
    WebhookCertificates first = renewer.apply(RenewalAction.CREATE, Optional.empty(), NAMES, T0, POLICY);
    WebhookCertificates rotated =
        renewer.apply(RenewalAction.ROTATE_CA, Optional.of(first), NAMES, T0.plus(Duration.ofDays(81)), POLICY);

    Map<String, String> data = CertificateSecretData.encode(rotated);
    WebhookCertificates decoded = CertificateSecretData.decode(data);

    assertEquals(List.of("tls.crt", "tls.key", "ca.crt", "ca.key"), List.copyOf(data.keySet()));
    assertArrayEquals(rotated.ca().certificate().getEncoded(), decoded.ca().certificate().getEncoded());
    assertArrayEquals(rotated.ca().privateKey().getEncoded(), decoded.ca().privateKey().getEncoded());
    assertEquals(1, decoded.previousCas().size());
    assertArrayEquals(first.ca().certificate().getEncoded(), decoded.previousCas().get(0).getEncoded());
    assertTrue(rotated.serving().sameAs(decoded.serving()));
    String caCrt = new String(Base64.getDecoder().decode(data.get("ca.crt")), StandardCharsets.UTF_8);
    assertEquals(2, Pem.decodeCertificates(caCrt).size());
  }

  @Test
  void currentCaIsFoundByItsKeyNotByPosition() throws Exception {
    WebhookCertificates first = renewer.apply(RenewalAction.CREATE, Optional.empty(), NAMES, T0, POLICY);
    WebhookCertificates rotated =
        renewer.apply(RenewalAction.ROTATE_CA, Optional.of(first), NAMES, T0.plus(Duration.ofDays(81)), POLICY);
    Map<String, String> data = new HashMap<>(CertificateSecretData.encode(rotated));
    List<X509Certificate> reversed = List.of(first.ca().certificate(), rotated.ca().certificate());
    data.put("ca.crt", b64(Pem.encodeCertificates(reversed)));

    WebhookCertificates decoded = CertificateSecretData.decode(data);

    assertArrayEquals(rotated.ca().certificate().getEncoded(), decoded.ca().certificate().getEncoded());
  }

  @Test
  void missingOrBrokenKeysAreNamed() {
    WebhookCertificates certs = renewer.apply(RenewalAction.CREATE, Optional.empty(), NAMES, T0, POLICY);
    Map<String, String> data = new HashMap<>(CertificateSecretData.encode(certs));
    data.remove("ca.key");
    assertEquals(
        "key ca.key is missing",
        assertThrows(IllegalArgumentException.class, () -> CertificateSecretData.decode(data)).getMessage());

    data.put("ca.key", data.get("tls.key"));
    assertEquals(
        "ca.key does not belong to any of the 1 certificates in ca.crt",
        assertThrows(IllegalArgumentException.class, () -> CertificateSecretData.decode(data)).getMessage());

    data.put("tls.crt", b64("not pem"));
    assertEquals(
        "tls.crt: no CERTIFICATE block found",
        assertThrows(IllegalArgumentException.class, () -> CertificateSecretData.decode(data)).getMessage());
  }

  private static String b64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }
}
