package io.tidb.operator.certs;

import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Everything the webhook's TLS needs: the current CA (with its key, to sign the next serving
 * certificate), CAs that were replaced but are still trusted, and the serving certificate.
 *
 * @param ca the CA that signed {@code serving}
 * @param previousCas CAs from earlier rotations, kept in the trust bundle until they expire
 * @param serving the certificate and key the server presents
 */
public record WebhookCertificates(
    CertificateAuthority ca, List<X509Certificate> previousCas, ServingCertificate serving) {

  public WebhookCertificates {
    Objects.requireNonNull(ca, "ca");
    Objects.requireNonNull(serving, "serving");
    previousCas = List.copyOf(previousCas);
  }

  /** The CA bundle clients trust: the current CA first, then the previous ones. */
  public List<X509Certificate> caBundle() {
    List<X509Certificate> bundle = new ArrayList<>(previousCas.size() + 1);
    bundle.add(ca.certificate());
    bundle.addAll(previousCas);
    return bundle;
  }

  /** {@link #caBundle()} as PEM, the form {@code caBundle} fields and {@code ca.crt} hold. */
  public String caBundlePem() {
    return Pem.encodeCertificates(caBundle());
  }

  /** The previous CAs that are still valid at {@code now}. */
  public List<X509Certificate> previousCasValidAt(Instant now) {
    return previousCas.stream().filter(c -> c.getNotAfter().toInstant().isAfter(now)).toList();
  }
}
