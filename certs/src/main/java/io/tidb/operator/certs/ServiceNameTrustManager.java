package io.tidb.operator.certs;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Trusts a server whose chain leads to the given CAs <em>and</em> whose certificate names a fixed
 * Service host (e.g. {@code basic-pd.default}), whatever host the URL had. This is how the operator
 * checks that it talks to the component it means even when a URL template points elsewhere (a
 * local run, a test, a proxy): the name checked is the component's own Service name, never the
 * connection's address. Client certificates are checked against the CAs alone.
 *
 * <p>Names match as RFC 6125 says for DNS subject alternative names: case-insensitively, with a
 * {@code *} only as the whole leftmost label, matching exactly one label.
 */
public final class ServiceNameTrustManager extends X509ExtendedTrustManager {

  private static final int DNS_NAME = 2;

  private final X509TrustManager chain;
  private final String expectedHost;

  /**
   * @param trusted the CA certificates ({@code ca.crt})
   * @param expectedHost the host the server's certificate must name
   */
  public ServiceNameTrustManager(List<X509Certificate> trusted, String expectedHost) {
    if (trusted.isEmpty()) {
      throw new IllegalArgumentException("no CA certificate to trust");
    }
    this.chain = pkix(KeyStores.trusting(trusted));
    this.expectedHost = expectedHost.toLowerCase(Locale.ROOT);
  }

  public String expectedHost() {
    return expectedHost;
  }

  /** The JDK's PKIX trust manager over {@code store} (chain, validity and usage checks). */
  static X509TrustManager pkix(KeyStore store) {
    try {
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      for (TrustManager tm : factory.getTrustManagers()) {
        if (tm instanceof X509TrustManager x509) {
          return x509;
        }
      }
      throw new IllegalStateException("no X509 trust manager in " + factory.getAlgorithm());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot initialise the trust manager", e);
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] certs, String authType)
      throws CertificateException {
    chain.checkServerTrusted(certs, authType);
    checkName(certs[0]);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] certs, String authType, Socket socket)
      throws CertificateException {
    checkServerTrusted(certs, authType);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] certs, String authType, SSLEngine engine)
      throws CertificateException {
    checkServerTrusted(certs, authType);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] certs, String authType)
      throws CertificateException {
    chain.checkClientTrusted(certs, authType);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] certs, String authType, Socket socket)
      throws CertificateException {
    chain.checkClientTrusted(certs, authType);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] certs, String authType, SSLEngine engine)
      throws CertificateException {
    chain.checkClientTrusted(certs, authType);
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return chain.getAcceptedIssuers();
  }

  private void checkName(X509Certificate leaf) throws CertificateException {
    List<String> names = dnsNames(leaf);
    for (String name : names) {
      if (matches(name, expectedHost)) {
        return;
      }
    }
    throw new CertificateException("the server certificate " + leaf.getSubjectX500Principal()
        + " is not valid for " + expectedHost + "; it names " + names);
  }

  /** The certificate's DNS subject alternative names. */
  static List<String> dnsNames(X509Certificate certificate) throws CertificateParsingException {
    List<String> names = new ArrayList<>();
    Collection<List<?>> alternatives = certificate.getSubjectAlternativeNames();
    if (alternatives != null) {
      for (List<?> entry : alternatives) {
        if (entry.size() == 2 && Integer.valueOf(DNS_NAME).equals(entry.get(0))) {
          names.add(String.valueOf(entry.get(1)));
        }
      }
    }
    return names;
  }

  /** Whether the certificate name {@code pattern} covers {@code host}. */
  public static boolean matches(String pattern, String host) {
    String p = pattern.toLowerCase(Locale.ROOT);
    String h = host.toLowerCase(Locale.ROOT);
    if (!p.startsWith("*.")) {
      return p.equals(h);
    }
    int dot = h.indexOf('.');
    return dot > 0 && h.substring(dot).equals(p.substring(1));
  }
}
