package io.tidb.operator.certs;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;

/** In-memory PKCS#12 key stores for TLS servers and clients. */
public final class KeyStores {

  public static final String SERVING_ALIAS = "serving";

  private KeyStores() {}

  /** A key store holding {@code serving} under {@link #SERVING_ALIAS}, protected by {@code password}. */
  public static KeyStore serving(ServingCertificate serving, char[] password) {
    try {
      KeyStore store = empty();
      store.setKeyEntry(
          SERVING_ALIAS,
          serving.privateKey(),
          password,
          new Certificate[] {serving.certificate()});
      return store;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot build serving key store", e);
    }
  }

  /** A trust store holding {@code trusted}. */
  public static KeyStore trusting(List<X509Certificate> trusted) {
    try {
      KeyStore store = empty();
      for (int i = 0; i < trusted.size(); i++) {
        store.setCertificateEntry("ca-" + i, trusted.get(i));
      }
      return store;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot build trust store", e);
    }
  }

  private static KeyStore empty() throws GeneralSecurityException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try {
      store.load(null, null);
    } catch (IOException e) {
      throw new GeneralSecurityException("cannot initialise empty key store", e);
    }
    return store;
  }
}
