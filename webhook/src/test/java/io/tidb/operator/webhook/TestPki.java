package io.tidb.operator.webhook;

import io.tidb.operator.certs.CertificateAuthority;
import io.tidb.operator.certs.CertificateIssuer;
import io.tidb.operator.certs.KeyAlgorithm;
import io.tidb.operator.certs.KeyStores;
import io.tidb.operator.certs.ServingCertificate;
import io.tidb.operator.certs.ServingNames;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** A CA and serving certificates for 127.0.0.1, and clients that trust the CA(s). */
final class TestPki {

  private static final CertificateIssuer ISSUER = new CertificateIssuer();

  final CertificateAuthority ca;

  TestPki() {
    this.ca = ISSUER.newAuthority("webhook-test-ca", Instant.now(), Duration.ofDays(1), KeyAlgorithm.EC_P256);
  }

  ServingCertificate serving() {
    return ISSUER.issueServing(
        ca, ServingNames.forService("tidb-webhook", "test"), Instant.now(), Duration.ofHours(2),
        KeyAlgorithm.EC_P256);
  }

  /** A TLS context trusting {@code cas} only. */
  static SSLContext trusting(List<X509Certificate> cas) {
    try {
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(KeyStores.trusting(cas));
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, tmf.getTrustManagers(), null);
      return context;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
