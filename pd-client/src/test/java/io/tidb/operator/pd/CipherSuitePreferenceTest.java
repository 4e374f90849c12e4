package io.tidb.operator.pd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import org.junit.jupiter.api.Test;

class CipherSuitePreferenceTest {

  private static final List<String> JDK_ORDER = List.of(
      "TLS_AES_256_GCM_SHA384",
      "TLS_AES_128_GCM_SHA256",
      "TLS_CHACHA20_POLY1305_SHA256",
      "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
      "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
      "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
      "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");

  @Test
  void withoutC2TheChaCha20SuitesComeFirstInTheirOrderThenTheRestInTheirs() {
    assertEquals(List.of(
            "TLS_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_AES_256_GCM_SHA384",
            "TLS_AES_128_GCM_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"),
        CipherSuitePreference.order(JDK_ORDER, false));
  }

  @Test
  void withC2TheOrderStays() {
    assertEquals(JDK_ORDER, CipherSuitePreference.order(JDK_ORDER, true));
  }

  @Test
  void noSuiteIsAddedOrDropped() {
    List<String> none = List.of("TLS_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");
    assertEquals(none, CipherSuitePreference.order(none, false));
    assertEquals(new HashSet<>(JDK_ORDER), new HashSet<>(CipherSuitePreference.order(JDK_ORDER, false)));
  }

  @Test
  void theSocketsOfTheFactoryOfferTheSuitesInThatOrder() throws Exception {
    SSLContext context = SSLContext.getDefault();
    List<String> defaults = Arrays.asList(context.getDefaultSSLParameters().getCipherSuites());
    SSLSocketFactory ordered = CipherSuitePreference.socketFactory(context, false);
    try (SSLSocket socket = (SSLSocket) ordered.createSocket()) {
      List<String> offered = Arrays.asList(socket.getEnabledCipherSuites());
      assertEquals(CipherSuitePreference.order(defaults, false), offered);
      assertTrue(offered.get(0).contains("CHACHA20"), offered.get(0));
    }
    try (SSLSocket socket = (SSLSocket) CipherSuitePreference.socketFactory(context, true).createSocket()) {
      assertEquals(defaults, Arrays.asList(socket.getEnabledCipherSuites()));
    }
  }

  @Test
  void seesC2InThisJvm() {
    // Surefire's JVM runs tiered compilation up to C2 (the controller's chart options stop at C1).
    assertTrue(CipherSuitePreference.optimizingCompiler());
  }
}
