package io.tidb.operator.certs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CertificateRenewerTest {

  private static final Instant T0 = CertificateFixtures.T0;
  private static final RenewalPolicy POLICY = CertificateFixtures.POLICY;
  private static final ServingNames NAMES = CertificateFixtures.NAMES;

  private final CertificateRenewer renewer = new CertificateRenewer(new CertificateIssuer(), "ca");
  private final WebhookCertificates first =
      renewer.apply(RenewalAction.CREATE, Optional.empty(), NAMES, T0, POLICY);

  @Test
  void createMakesACaAndALeafSignedByIt() {
    assertTrue(first.previousCas().isEmpty());
    assertTrue(
        CertificateIssuer.isSignedBy(
            first.serving().certificate(), first.ca().certificate().getPublicKey()));
  }

  @Test
  void renewingTheLeafKeepsTheCa() throws Exception {
    Instant later = T0.plus(Duration.ofDays(26));
    WebhookCertificates renewed =
        renewer.apply(RenewalAction.RENEW_LEAF, Optional.of(first), NAMES, later, POLICY);

    assertSame(first.ca(), renewed.ca());
    assertNotEquals(
        first.serving().certificate().getSerialNumber(),
        renewed.serving().certificate().getSerialNumber());
    assertEquals(later.plus(Duration.ofDays(30)), renewed.serving().certificate().getNotAfter().toInstant());
    CertificateIssuerTest.validatePath(
        renewed.serving().certificate(), first.ca().certificate(), later);
  }

  @Test
  void rotatingTheCaKeepsTheOldCaTrusted() throws Exception {
    Instant later = T0.plus(Duration.ofDays(85));
    WebhookCertificates rotated =
        renewer.apply(RenewalAction.ROTATE_CA, Optional.of(first), NAMES, later, POLICY);

    assertNotEquals(first.ca().certificate(), rotated.ca().certificate());
    assertEquals(2, rotated.caBundle().size());
    assertEquals(rotated.ca().certificate(), rotated.caBundle().get(0));
    assertArrayEquals(first.ca().certificate().getEncoded(), rotated.caBundle().get(1).getEncoded());
    // The old serving certificate still validates against the bundle's old CA...
    CertificateIssuerTest.validatePath(
        first.serving().certificate(), rotated.caBundle().get(1), T0.plus(Duration.ofDays(1)));
    // ...and the new one against the new CA.
    CertificateIssuerTest.validatePath(rotated.serving().certificate(), rotated.caBundle().get(0), later);
  }

  @Test
  void expiredPreviousCasLeaveTheBundle() {
    Instant rotation1 = T0.plus(Duration.ofDays(85));
    WebhookCertificates once =
        renewer.apply(RenewalAction.ROTATE_CA, Optional.of(first), NAMES, rotation1, POLICY);
    // The first CA expires at T0+100d; renewing after that drops it.
    WebhookCertificates renewed =
        renewer.apply(
            RenewalAction.RENEW_LEAF, Optional.of(once), NAMES, T0.plus(Duration.ofDays(101)), POLICY);

    assertEquals(1, once.previousCas().size());
    assertTrue(renewed.previousCas().isEmpty());
  }

  @Test
  void actionsOnNothingAreRefused() {
    assertEquals(
        "RENEW_LEAF needs existing certificates, none given",
        assertThrows(
                IllegalArgumentException.class,
                () -> renewer.apply(RenewalAction.RENEW_LEAF, Optional.empty(), NAMES, T0, POLICY))
            .getMessage());
  }
}
