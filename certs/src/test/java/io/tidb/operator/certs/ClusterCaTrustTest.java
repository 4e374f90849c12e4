package io.tidb.operator.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.internal.SSLUtils;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;

/** The API server trusted through the cluster's CA alone, and fabric8's trust left alone otherwise. */
class ClusterCaTrustTest {

  @Test
  void aConfigNamingACaTrustsThatCaAlone() throws Exception {
    X509Certificate ca = new CertificateIssuer()
        .newAuthority("cluster-ca", Instant.now(), Duration.ofDays(1), KeyAlgorithm.EC_P256).certificate();
    Config config = ClusterCaTrust.only(new ConfigBuilder(Config.empty()).withMasterUrl("https://127.0.0.1:6443")
        .withCaCertData(Base64.getEncoder().encodeToString(Pem.encodeCertificate(ca).getBytes(StandardCharsets.US_ASCII)))
        .build());

    X509TrustManager trust = (X509TrustManager) SSLUtils.trustManagers(config)[0];
    assertEquals(List.of(ca), List.of(trust.getAcceptedIssuers()), "the cluster's CA, not the JDK's authorities");
  }

  /** Built from {@code Config.empty()}: fabric8 would otherwise add what KUBECONFIG names, a CA among it. */
  @Test
  void aConfigWithoutACaOrSkippingVerificationOrWithItsOwnStoreIsLeftAlone() {
    assertNull(ClusterCaTrust.only(new ConfigBuilder(Config.empty()).withMasterUrl("https://127.0.0.1:6443").build())
        .getTrustStoreFile());
    assertNull(ClusterCaTrust.only(new ConfigBuilder(Config.empty()).withMasterUrl("https://127.0.0.1:6443")
        .withCaCertFile("/var/run/secrets/kubernetes.io/serviceaccount/ca.crt").withTrustCerts(true).build())
        .getTrustStoreFile());
    assertEquals("/etc/corp/trust.p12", ClusterCaTrust.only(new ConfigBuilder(Config.empty()).withMasterUrl("https://127.0.0.1:6443")
        .withCaCertFile("/var/run/secrets/kubernetes.io/serviceaccount/ca.crt").withTrustStoreFile("/etc/corp/trust.p12")
        .build()).getTrustStoreFile());
  }
}
