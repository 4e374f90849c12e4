package io.tidb.operator.certs;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Objects;

/** A self-signed CA certificate and the key that signs serving certificates with it. */
public record CertificateAuthority(X509Certificate certificate, PrivateKey privateKey) {
  public CertificateAuthority {
    Objects.requireNonNull(certificate, "certificate");
    Objects.requireNonNull(privateKey, "privateKey");
  }
}
