package io.tidb.operator.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RenewalDecisionTest {

  private static final Instant T0 = CertificateFixtures.T0;
  private static final RenewalPolicy POLICY = CertificateFixtures.POLICY;
  private static final ServingNames NAMES = CertificateFixtures.NAMES;

  private final CertificateIssuer issuer = new CertificateIssuer();
  private final CertificateRenewer renewer = new CertificateRenewer(issuer, "test-ca");
  private final WebhookCertificates fresh =
      renewer.apply(RenewalAction.CREATE, Optional.empty(), NAMES, T0, POLICY);

  @Test
  void nothingStoredMeansCreate() {
    RenewalDecision decision = RenewalDecision.decide(Optional.empty(), NAMES, T0, POLICY);
    assertEquals(new RenewalDecision(RenewalAction.CREATE, "no certificates stored"), decision);
  }

  @Test
  void freshCertificatesAreKept() {
    assertEquals(RenewalAction.NOOP, decideAt(T0).action());
    // Last instant before the serving certificate's renewal window (expiry 30d, window 5d).
    assertEquals(RenewalAction.NOOP, decideAt(T0.plus(Duration.ofDays(25)).minusMillis(1)).action());
  }

  @Test
  void servingCertificateIsRenewedInsideItsWindow() {
    RenewalDecision decision = decideAt(T0.plus(Duration.ofDays(25)));
    assertEquals(RenewalAction.RENEW_LEAF, decision.action());
    assertEquals(
        "serving certificate expires at 2026-03-31T00:00:00Z, within PT120H", decision.reason());
  }

  @Test
  void expiredServingCertificateIsRenewed() {
    assertEquals(RenewalAction.RENEW_LEAF, decideAt(T0.plus(Duration.ofDays(31))).action());
  }

  @Test
  void caIsRotatedInsideItsWindowEvenWhenTheLeafIsFresh() {
    Instant inCaWindow = T0.plus(Duration.ofDays(80));
    WebhookCertificates renewedLeaf =
        renewer.apply(RenewalAction.RENEW_LEAF, Optional.of(fresh), NAMES, inCaWindow.minus(Duration.ofDays(1)), POLICY);
    RenewalDecision decision =
        RenewalDecision.decide(Optional.of(renewedLeaf), NAMES, inCaWindow, POLICY);
    assertEquals(RenewalAction.ROTATE_CA, decision.action());
    assertEquals("CA expires at 2026-06-09T00:00:00Z, within PT480H", decision.reason());
  }

  @Test
  void changedServiceNamesRenewTheServingCertificate() {
    RenewalDecision decision =
        RenewalDecision.decide(
            Optional.of(fresh), ServingNames.forService("other", "ns"), T0, POLICY);
    assertEquals(RenewalAction.RENEW_LEAF, decision.action());
  }

  @Test
  void servingCertificateFromAnotherCaIsRenewed() {
    CertificateAuthority otherCa =
        issuer.newAuthority("other", T0, Duration.ofDays(100), KeyAlgorithm.EC_P256);
    ServingCertificate foreign =
        issuer.issueServing(otherCa, NAMES, T0, Duration.ofDays(30), KeyAlgorithm.EC_P256);
    WebhookCertificates mixed = new WebhookCertificates(fresh.ca(), List.of(), foreign);

    RenewalDecision decision = RenewalDecision.decide(Optional.of(mixed), NAMES, T0, POLICY);

    assertEquals(
        new RenewalDecision(
            RenewalAction.RENEW_LEAF, "serving certificate is not signed by the current CA"),
        decision);
  }

  @Test
  void servingKeyThatDoesNotMatchIsRenewed() {
    ServingCertificate wrongKey =
        new ServingCertificate(
            fresh.serving().certificate(), KeyAlgorithm.EC_P256.generateKeyPair().getPrivate());
    WebhookCertificates broken = new WebhookCertificates(fresh.ca(), List.of(), wrongKey);

    assertEquals(
        RenewalAction.RENEW_LEAF,
        RenewalDecision.decide(Optional.of(broken), NAMES, T0, POLICY).action());
  }

  @Test
  void caKeyThatDoesNotMatchRotatesTheCa() {
    CertificateAuthority wrong =
        new CertificateAuthority(
            fresh.ca().certificate(), KeyAlgorithm.EC_P256.generateKeyPair().getPrivate());
    WebhookCertificates broken = new WebhookCertificates(wrong, List.of(), fresh.serving());

    assertEquals(
        RenewalAction.ROTATE_CA,
        RenewalDecision.decide(Optional.of(broken), NAMES, T0, POLICY).action());
  }

  private RenewalDecision decideAt(Instant now) {
    return RenewalDecision.decide(Optional.of(fresh), NAMES, now, POLICY);
  }
}
