package io.tidb.operator.certs;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServiceNameTrustManagerTest {

  private static final CertificateIssuer ISSUER = new CertificateIssuer();

  @Test
  void namesMatchExactlyOrByOneWildcardLabel() {
    assertTrue(ServiceNameTrustManager.matches("basic-pd.ns", "BASIC-PD.ns"));
    assertTrue(ServiceNameTrustManager.matches("*.basic-pd-peer.ns.svc", "basic-pd-0.basic-pd-peer.ns.svc"));
    assertFalse(ServiceNameTrustManager.matches("*.basic-pd-peer.ns.svc", "a.b.basic-pd-peer.ns.svc"));
    assertFalse(ServiceNameTrustManager.matches("*.basic-pd-peer.ns.svc", "basic-pd-peer.ns.svc"));
    assertFalse(ServiceNameTrustManager.matches("basic-pd", "basic-pd.ns"));
  }

  @Test
  void aServerIsTrustedOnlyWithTheCaAndTheServiceName() throws Exception {
    Instant now = Instant.now();
    CertificateAuthority ca = ISSUER.newAuthority("ca", now, Duration.ofDays(1), KeyAlgorithm.EC_P256);
    X509Certificate pd = ISSUER.issuePeer(ca, new ServingNames(List.of("basic-pd.ns"), List.of()),
        now, Duration.ofDays(1), KeyAlgorithm.EC_P256).certificate();
    new ServiceNameTrustManager(List.of(ca.certificate()), "basic-pd.ns")
        .checkServerTrusted(new X509Certificate[] {pd}, "ECDHE_ECDSA");
    CertificateException wrongName = assertThrows(CertificateException.class,
        () -> new ServiceNameTrustManager(List.of(ca.certificate()), "other-pd.ns")
            .checkServerTrusted(new X509Certificate[] {pd}, "ECDHE_ECDSA"));
    assertTrue(wrongName.getMessage().contains("not valid for other-pd.ns; it names [basic-pd.ns]"),
        wrongName.getMessage());
    CertificateAuthority other = ISSUER.newAuthority("other", now, Duration.ofDays(1), KeyAlgorithm.EC_P256);
    assertThrows(CertificateException.class,
        () -> new ServiceNameTrustManager(List.of(other.certificate()), "basic-pd.ns")
            .checkServerTrusted(new X509Certificate[] {pd}, "ECDHE_ECDSA"));
  }
}
