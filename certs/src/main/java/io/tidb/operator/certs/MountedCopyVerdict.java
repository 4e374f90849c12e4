package io.tidb.operator.certs;

import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Set;

/**
 * Whether a copy of the certificate Secret's serving certificate, as the kubelet mounts it into
 * the pod, may be served at start before the Secret itself is read, with the reason in words for
 * the log.
 *
 * <p>The copy may lag the Secret (the kubelet refreshes a Secret volume within a minute or two), so
 * it is served only while it is the certificate a pass over the Secret would keep: for the wanted
 * names, already valid, and outside its renewal window. The Secret is read right after the server
 * is up, and a certificate that differs is swapped in. A copy the Secret no longer holds is still
 * trusted by the API server for that second: the previous CA stays in the bundle until it
 * expires, and a serving certificate never outlives its CA ({@link SecretCertificateManager}).
 *
 * @param usable whether to serve the copy at once
 * @param reason why, e.g. {@code serving certificate valid until 2027-01-01T00:00:00Z}
 */
public record MountedCopyVerdict(boolean usable, String reason) {

  /**
   * Judges {@code copy} at {@code now}. Pure: looks only at its arguments. The copy's key is
   * checked against its certificate where it is read ({@link MountedCertificateFiles}).
   *
   * @param wanted the names the serving certificate must carry
   */
  public static MountedCopyVerdict judge(
      ServingCertificate copy, ServingNames wanted, Instant now, RenewalPolicy policy) {
    X509Certificate certificate = copy.certificate();
    Instant notBefore = certificate.getNotBefore().toInstant();
    if (now.isBefore(notBefore)) {
      return new MountedCopyVerdict(false, "serving certificate not valid before " + notBefore);
    }
    Set<String> names = RenewalDecision.namesOf(certificate);
    if (!names.equals(wanted.asSet())) {
      return new MountedCopyVerdict(
          false, "serving certificate names " + names + " differ from wanted " + wanted.asSet());
    }
    Instant notAfter = certificate.getNotAfter().toInstant();
    if (!now.isBefore(notAfter.minus(policy.servingRenewBefore()))) {
      return new MountedCopyVerdict(
          false,
          "serving certificate expires at " + notAfter + ", within " + policy.servingRenewBefore());
    }
    return new MountedCopyVerdict(true, "serving certificate valid until " + notAfter);
  }
}
