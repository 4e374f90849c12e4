package io.tidb.operator.certs;

import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Carries out a {@link RenewalDecision}: produces the certificates to store next. */
public final class CertificateRenewer {

  private final CertificateIssuer issuer;
  private final String caCommonName;

  public CertificateRenewer(CertificateIssuer issuer, String caCommonName) {
    this.issuer = issuer;
    this.caCommonName = caCommonName;
  }

  /**
   * The certificates after {@code action}. Previous CAs that expired by {@code now} are dropped;
   * on {@link RenewalAction#ROTATE_CA} the replaced CA joins the previous ones.
   *
   * @throws IllegalArgumentException for an action that needs existing certificates when there
   *     are none
   */
  public WebhookCertificates apply(
      RenewalAction action,
      Optional<WebhookCertificates> existing,
      ServingNames names,
      Instant now,
      RenewalPolicy policy) {
    return switch (action) {
      case NOOP -> existing.orElseThrow(() -> missing(action));
      case CREATE -> fresh(List.of(), names, now, policy);
      case ROTATE_CA -> {
        WebhookCertificates old = existing.orElseThrow(() -> missing(action));
        List<X509Certificate> keep = new ArrayList<>();
        keep.add(old.ca().certificate());
        keep.addAll(old.previousCas());
        yield fresh(stillValid(keep, now), names, now, policy);
      }
      case RENEW_LEAF -> {
        WebhookCertificates old = existing.orElseThrow(() -> missing(action));
        ServingCertificate serving =
            issuer.issueServing(
                old.ca(), names, now, policy.servingValidity(), policy.keyAlgorithm());
        yield new WebhookCertificates(old.ca(), old.previousCasValidAt(now), serving);
      }
    };
  }

  private WebhookCertificates fresh(
      List<X509Certificate> previous, ServingNames names, Instant now, RenewalPolicy policy) {
    CertificateAuthority ca =
        issuer.newAuthority(caCommonName, now, policy.caValidity(), policy.keyAlgorithm());
    ServingCertificate serving =
        issuer.issueServing(ca, names, now, policy.servingValidity(), policy.keyAlgorithm());
    return new WebhookCertificates(ca, previous, serving);
  }

  private static List<X509Certificate> stillValid(List<X509Certificate> cas, Instant now) {
    return cas.stream().filter(c -> c.getNotAfter().toInstant().isAfter(now)).toList();
  }

  private static IllegalArgumentException missing(RenewalAction action) {
    return new IllegalArgumentException(action + " needs existing certificates, none given");
  }
}
