package io.tidb.operator.certs;

import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The decision about stored certificates, with the reason in words for the log.
 *
 * @param action what to do
 * @param reason why, e.g. {@code serving certificate expires at 2026-01-01T00:00:00Z}
 */
public record RenewalDecision(RenewalAction action, String reason) {

  /**
   * Decides what to do with {@code existing} at {@code now}. Pure: looks only at its arguments.
   *
   * @param existing the stored certificates, empty when none (or none readable) are stored
   * @param wanted the names the serving certificate must carry
   */
  public static RenewalDecision decide(
      Optional<WebhookCertificates> existing,
      ServingNames wanted,
      Instant now,
      RenewalPolicy policy) {
    if (existing.isEmpty()) {
      return new RenewalDecision(RenewalAction.CREATE, "no certificates stored");
    }
    WebhookCertificates current = existing.get();
    X509Certificate ca = current.ca().certificate();
    Instant caRotateAt = ca.getNotAfter().toInstant().minus(policy.caRenewBefore());
    if (!now.isBefore(caRotateAt)) {
      return new RenewalDecision(
          RenewalAction.ROTATE_CA,
          "CA expires at " + ca.getNotAfter().toInstant() + ", within " + policy.caRenewBefore());
    }
    if (!KeyPairs.matches(ca.getPublicKey(), current.ca().privateKey())) {
      return new RenewalDecision(
          RenewalAction.ROTATE_CA, "stored CA key does not belong to the CA certificate");
    }
    X509Certificate leaf = current.serving().certificate();
    if (!CertificateIssuer.isSignedBy(leaf, ca.getPublicKey())) {
      return new RenewalDecision(
          RenewalAction.RENEW_LEAF, "serving certificate is not signed by the current CA");
    }
    if (!KeyPairs.matches(leaf.getPublicKey(), current.serving().privateKey())) {
      return new RenewalDecision(
          RenewalAction.RENEW_LEAF, "serving key does not belong to the serving certificate");
    }
    Set<String> names = namesOf(leaf);
    if (!names.equals(wanted.asSet())) {
      return new RenewalDecision(
          RenewalAction.RENEW_LEAF,
          "serving certificate names " + names + " differ from wanted " + wanted.asSet());
    }
    Instant leafRenewAt = leaf.getNotAfter().toInstant().minus(policy.servingRenewBefore());
    if (!now.isBefore(leafRenewAt)) {
      return new RenewalDecision(
          RenewalAction.RENEW_LEAF,
          "serving certificate expires at "
              + leaf.getNotAfter().toInstant()
              + ", within "
              + policy.servingRenewBefore());
    }
    return new RenewalDecision(
        RenewalAction.NOOP, "serving certificate valid until " + leaf.getNotAfter().toInstant());
  }

  /** The subject alternative names of {@code certificate}, as {@code DNS:x} / {@code IP:y}. */
  public static Set<String> namesOf(X509Certificate certificate) {
    Set<String> names = new TreeSet<>();
    try {
      Collection<List<?>> sans = certificate.getSubjectAlternativeNames();
      if (sans == null) {
        return names;
      }
      for (List<?> san : sans) {
        int type = (Integer) san.get(0);
        if (type == 2) {
          names.add("DNS:" + san.get(1));
        } else if (type == 7) {
          names.add("IP:" + san.get(1));
        }
      }
    } catch (CertificateParsingException e) {
      return names;
    }
    return names;
  }
}
