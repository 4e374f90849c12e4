package io.tidb.operator.certs;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Objects;

/** A TLS server certificate and its private key. */
public record ServingCertificate(X509Certificate certificate, PrivateKey privateKey) {
  public ServingCertificate {
    Objects.requireNonNull(certificate, "certificate");
    Objects.requireNonNull(privateKey, "privateKey");
  }

  /** Whether both hold the same certificate and key bytes. */
  public boolean sameAs(ServingCertificate other) {
    try {
      return other != null
          && Arrays.equals(certificate.getEncoded(), other.certificate.getEncoded())
          && Arrays.equals(privateKey.getEncoded(), other.privateKey.getEncoded());
    } catch (java.security.cert.CertificateEncodingException e) {
      return false;
    }
  }

  /** Short text for logs: serial and expiry, never key material. */
  public String describe() {
    return "serial=" + certificate.getSerialNumber().toString(16)
        + " notAfter=" + certificate.getNotAfter().toInstant();
  }
}
