package io.tidb.operator.certs;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.PBEParameterSpec;

/**
 * In-memory PKCS#12 key stores for TLS servers and clients. They are handed to a key manager and
 * never written anywhere, so a private key in them is wrapped with one round of its password's key
 * derivation ({@link #IN_MEMORY_KEY_PROTECTION}) instead of the JDK's default of 10,000: the key
 * is in this process's memory in the clear anyway, and those rounds, once to wrap and once to
 * unwrap, cost a start or a certificate reload about 0.2 s of CPU with the code still interpreted.
 */
public final class KeyStores {

  public static final String SERVING_ALIAS = "serving";

  /** The password-based encryption of a private key in an in-memory store. */
  static final String IN_MEMORY_KEY_PROTECTION = "PBEWithHmacSHA256AndAES_256";

  private static final SecureRandom RANDOM = new SecureRandom();

  private KeyStores() {}

  /** A key store holding {@code serving} under {@link #SERVING_ALIAS}, protected by {@code password}. */
  public static KeyStore serving(ServingCertificate serving, char[] password) {
    return withKey(SERVING_ALIAS, serving.privateKey(), List.of(serving.certificate()), password);
  }

  /** A key store holding {@code key} and its certificate {@code chain} under {@code alias}. */
  public static KeyStore withKey(
      String alias, PrivateKey key, List<X509Certificate> chain, char[] password) {
    try {
      KeyStore store = empty();
      store.setEntry(
          alias,
          new KeyStore.PrivateKeyEntry(key, chain.toArray(Certificate[]::new)),
          inMemoryProtection(password));
      return store;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot build a key store for " + alias, e);
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

  /** {@code password} with one round of key derivation, a fresh salt and a fresh IV. */
  static KeyStore.PasswordProtection inMemoryProtection(char[] password) {
    byte[] salt = new byte[20];
    byte[] iv = new byte[16];
    RANDOM.nextBytes(salt);
    RANDOM.nextBytes(iv);
    return new KeyStore.PasswordProtection(
        password, IN_MEMORY_KEY_PROTECTION, new PBEParameterSpec(salt, 1, new IvParameterSpec(iv)));
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
