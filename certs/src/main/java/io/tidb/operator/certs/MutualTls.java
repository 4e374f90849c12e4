package io.tidb.operator.certs;

import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

/**
 * TLS contexts for mutual TLS inside a TiDB cluster, from upstream's Secret layout: a CA
 * ({@code ca.crt}) and a certificate chain with its key ({@code tls.crt}, {@code tls.key}).
 */
public final class MutualTls {

  private static final char[] IN_MEMORY = "in-memory".toCharArray();

  private MutualTls() {}

  /**
   * A client context presenting {@code chain}/{@code key} and trusting a server only if it chains
   * to {@code ca} and its certificate names {@code serverHost} (see {@link
   * ServiceNameTrustManager}).
   */
  public static SSLContext client(
      List<X509Certificate> ca, List<X509Certificate> chain, PrivateKey key, String serverHost) {
    return context(ca, chain, key, new ServiceNameTrustManager(ca, serverHost));
  }

  /**
   * A server context presenting {@code chain}/{@code key} that trusts client certificates issued
   * by {@code ca}; whether a client certificate is required is the server's setting ({@code
   * SSLParameters.setNeedClientAuth}).
   */
  public static SSLContext server(
      List<X509Certificate> ca, List<X509Certificate> chain, PrivateKey key) {
    return context(ca, chain, key, ServiceNameTrustManager.pkix(KeyStores.trusting(ca)));
  }

  /** The same from PEM text, as the Secret's keys hold it. */
  public static SSLContext server(String caPem, String certPem, String keyPem) {
    return server(
        Pem.decodeCertificates(caPem), Pem.decodeCertificates(certPem), Pem.decodePrivateKey(keyPem));
  }

  private static SSLContext context(
      List<X509Certificate> ca, List<X509Certificate> chain, PrivateKey key, TrustManager trust) {
    if (ca.isEmpty() || chain.isEmpty()) {
      throw new IllegalArgumentException("a CA and a certificate are both required");
    }
    try {
      KeyStore keys = KeyStores.withKey("tls", key, chain, IN_MEMORY);
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, IN_MEMORY);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(kmf.getKeyManagers(), new TrustManager[] {trust}, new SecureRandom());
      return context;
    } catch (GeneralSecurityException | IllegalStateException e) {
      throw new IllegalArgumentException("cannot build a TLS context: " + e.getMessage(), e);
    }
  }
}
