package io.tidb.operator.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CertificateIssuerTest {

  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private final CertificateIssuer issuer = new CertificateIssuer();
  private final ServingNames names = ServingNames.forService("tidb-webhook", "tidb-admin");

  @ParameterizedTest
  @EnumSource(KeyAlgorithm.class)
  void servingCertificateChainsToTheCa(KeyAlgorithm algorithm) throws Exception {
    CertificateAuthority ca = issuer.newAuthority("test-ca", NOW, Duration.ofDays(10), algorithm);
    ServingCertificate leaf = issuer.issueServing(ca, names, NOW, Duration.ofDays(2), algorithm);

    validatePath(leaf.certificate(), ca.certificate(), NOW.plus(Duration.ofDays(1)));
    assertEquals(algorithm, KeyAlgorithm.of(leaf.privateKey()));
    assertTrue(KeyPairs.matches(leaf.certificate().getPublicKey(), leaf.privateKey()));
    assertEquals(-1, leaf.certificate().getBasicConstraints(), "leaf must not be a CA");
    assertEquals(0, ca.certificate().getBasicConstraints(), "CA path length 0");
    assertEquals(List.of("1.3.6.1.5.5.7.3.1"), leaf.certificate().getExtendedKeyUsage());
    assertTrue(ca.certificate().getKeyUsage()[5], "CA has keyCertSign");
  }

  @ParameterizedTest
  @EnumSource(KeyAlgorithm.class)
  void chainFromAnotherCaDoesNotValidate(KeyAlgorithm algorithm) {
    CertificateAuthority ca = issuer.newAuthority("a", NOW, Duration.ofDays(10), algorithm);
    CertificateAuthority other = issuer.newAuthority("b", NOW, Duration.ofDays(10), algorithm);
    ServingCertificate leaf = issuer.issueServing(ca, names, NOW, Duration.ofDays(2), algorithm);

    assertThrows(
        CertPathValidatorException.class,
        () -> validatePath(leaf.certificate(), other.certificate(), NOW));
    assertFalse(CertificateIssuer.isSignedBy(leaf.certificate(), other.certificate().getPublicKey()));
  }

  @org.junit.jupiter.api.Test
  void servingCertificateCarriesEveryServiceNameAndLoopback() {
    CertificateAuthority ca =
        issuer.newAuthority("ca", NOW, Duration.ofDays(10), KeyAlgorithm.EC_P256);
    ServingCertificate leaf =
        issuer.issueServing(ca, names, NOW, Duration.ofDays(2), KeyAlgorithm.EC_P256);

    assertEquals(
        Set.of(
            "DNS:tidb-webhook",
            "DNS:tidb-webhook.tidb-admin",
            "DNS:tidb-webhook.tidb-admin.svc",
            "DNS:tidb-webhook.tidb-admin.svc.cluster.local",
            "DNS:localhost",
            "IP:127.0.0.1"),
        RenewalDecision.namesOf(leaf.certificate()));
    assertTrue(
        leaf.certificate().getSubjectX500Principal().getName().contains("CN=tidb-webhook.tidb-admin.svc"));
  }

  @org.junit.jupiter.api.Test
  void validityStartsSlightlyEarlyAndLastsAsAsked() {
    CertificateAuthority ca =
        issuer.newAuthority("ca", NOW, Duration.ofDays(10), KeyAlgorithm.EC_P256);
    ServingCertificate leaf =
        issuer.issueServing(ca, names, NOW, Duration.ofDays(2), KeyAlgorithm.EC_P256);
    X509Certificate cert = leaf.certificate();

    assertEquals(NOW.minus(CertificateIssuer.CLOCK_SKEW_ALLOWANCE), cert.getNotBefore().toInstant());
    assertEquals(NOW.plus(Duration.ofDays(2)), cert.getNotAfter().toInstant());
    assertEquals(NOW.plus(Duration.ofDays(10)), ca.certificate().getNotAfter().toInstant());
  }

  @org.junit.jupiter.api.Test
  void servingCertificateNeverOutlivesItsCa() {
    CertificateAuthority ca =
        issuer.newAuthority("ca", NOW, Duration.ofDays(1), KeyAlgorithm.EC_P256);
    ServingCertificate leaf =
        issuer.issueServing(ca, names, NOW, Duration.ofDays(30), KeyAlgorithm.EC_P256);

    assertEquals(ca.certificate().getNotAfter(), leaf.certificate().getNotAfter());
  }

  @org.junit.jupiter.api.Test
  void serialsDiffer() {
    CertificateAuthority ca =
        issuer.newAuthority("ca", NOW, Duration.ofDays(1), KeyAlgorithm.EC_P256);
    ServingCertificate a = issuer.issueServing(ca, names, NOW, Duration.ofHours(1), KeyAlgorithm.EC_P256);
    ServingCertificate b = issuer.issueServing(ca, names, NOW, Duration.ofHours(1), KeyAlgorithm.EC_P256);

    assertFalse(a.certificate().getSerialNumber().equals(b.certificate().getSerialNumber()));
    assertTrue(a.certificate().getSerialNumber().signum() > 0);
  }

  @org.junit.jupiter.api.Test
  void serviceNamesMustBeDnsLabels() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> ServingNames.forService("Bad_Name", "ns"));
    assertEquals(
        "service name \"Bad_Name\" is not a DNS-1123 label (lower-case letters, digits and '-', at most 63)",
        e.getMessage());
  }

  static void validatePath(X509Certificate leaf, X509Certificate anchor, Instant at)
      throws Exception {
    CertificateFactory factory = CertificateFactory.getInstance("X.509");
    PKIXParameters params = new PKIXParameters(Set.of(new TrustAnchor(anchor, null)));
    params.setRevocationEnabled(false);
    params.setDate(Date.from(at));
    CertPathValidator.getInstance("PKIX")
        .validate(factory.generateCertPath(List.of(leaf)), params);
  }
}
