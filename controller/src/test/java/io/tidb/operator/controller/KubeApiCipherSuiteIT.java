package io.tidb.operator.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.TlsVersion;
import io.tidb.operator.pd.CipherSuitePreference;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.Base64;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The cipher suite a real kube-apiserver (Go's TLS) agrees on with the controller's clients: a
 * JVM without C2 lists ChaCha20-Poly1305 first and gets it; with C2 the JDK's order (AES-GCM first)
 * stays and gets AES-GCM. Both the component clients' sockets and fabric8's JDK HTTP client.
 */
@WithLocalControlPlane
class KubeApiCipherSuiteIT {

  private static final String CHACHA20 = "TLS_CHACHA20_POLY1305_SHA256";

  private static URI server;
  private static SSLContext trusting;

  @BeforeAll
  static void trustTheApiServer(ClusterAccess access) throws Exception {
    Config config = Config.fromKubeconfig(access.kubeConfigYaml());
    server = URI.create(config.getMasterUrl());
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(
        new ByteArrayInputStream(Base64.getDecoder().decode(config.getCaCertData()))));
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    trusting = SSLContext.getInstance("TLS");
    trusting.init(null, tmf.getTrustManagers(), null);
  }

  private static String socketSuite(boolean optimizingCompiler) throws Exception {
    try (SSLSocket socket = (SSLSocket) CipherSuitePreference.socketFactory(trusting, optimizingCompiler)
        .createSocket(server.getHost(), server.getPort())) {
      socket.startHandshake();
      return socket.getSession().getCipherSuite();
    }
  }

  /**
   * The suite of an anonymous GET /version through a JDK client configured by the controller's
   * factory. HTTP/1.1: this API server answered the anonymous request over HTTP/2 with GOAWAY; the
   * suite is agreed in the TLS handshake, before either.
   */
  private static String kubeClientSuite(boolean optimizingCompiler) throws Exception {
    HttpClient.Builder builder = HttpClient.newBuilder().sslContext(trusting).version(HttpClient.Version.HTTP_1_1);
    new KubeClients.CipherOrderedHttpClientFactory(
        new TlsVersion[] {TlsVersion.TLS_1_3, TlsVersion.TLS_1_2}, optimizingCompiler)
        .additionalConfig(builder);
    HttpResponse<String> version = builder.build().send(
        HttpRequest.newBuilder(server.resolve("/version")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, version.statusCode(), version.body());
    return version.sslSession().orElseThrow().getCipherSuite();
  }

  @Test
  void withoutC2TheComponentClientsGetChaCha20() throws Exception {
    assertEquals(CHACHA20, socketSuite(false));
  }

  @Test
  void withC2TheComponentClientsKeepTheJdksOrder() throws Exception {
    assertNotEquals(CHACHA20, socketSuite(true));
  }

  @Test
  void withoutC2TheKubernetesClientGetsChaCha20() throws Exception {
    assertEquals(CHACHA20, kubeClientSuite(false));
  }

  @Test
  void withC2TheKubernetesClientKeepsTheJdksOrder() throws Exception {
    assertNotEquals(CHACHA20, kubeClientSuite(true));
  }
}
