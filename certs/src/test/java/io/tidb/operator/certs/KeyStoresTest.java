package io.tidb.operator.certs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.security.Key;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.PBEParameterSpec;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.X509KeyManager;
import org.junit.jupiter.api.Test;

class KeyStoresTest {

  private static final CertificateIssuer ISSUER = new CertificateIssuer();
  private static final Instant NOW = Instant.now();
  private static final CertificateAuthority CA =
      ISSUER.newAuthority("ca", NOW, Duration.ofDays(1), KeyAlgorithm.EC_P256);

  private static ServingCertificate issue(String service) {
    return ISSUER.issueServing(
        CA, ServingNames.forService(service, "ns"), NOW, Duration.ofDays(1), KeyAlgorithm.EC_P256);
  }

  @Test
  void aServingStoreGivesTheKeyAndChainBackToAKeyManager() throws Exception {
    ServingCertificate serving = issue("webhook");
    char[] password = "secret".toCharArray();

    KeyStore store = KeyStores.serving(serving, password);

    Key key = store.getKey(KeyStores.SERVING_ALIAS, password);
    assertArrayEquals(serving.privateKey().getEncoded(), key.getEncoded());
    assertThrows(UnrecoverableKeyException.class,
        () -> store.getKey(KeyStores.SERVING_ALIAS, "wrong".toCharArray()));
    KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    factory.init(store, password);
    X509KeyManager manager = (X509KeyManager) factory.getKeyManagers()[0];
    assertEquals(serving.certificate(), manager.getCertificateChain(KeyStores.SERVING_ALIAS)[0]);
    assertNotNull(manager.getPrivateKey(KeyStores.SERVING_ALIAS));
  }

  @Test
  void aKeyInMemoryIsWrappedWithOneRoundAndItsOwnSaltAndIv() {
    KeyStore.PasswordProtection first = KeyStores.inMemoryProtection("p".toCharArray());
    KeyStore.PasswordProtection second = KeyStores.inMemoryProtection("p".toCharArray());

    assertEquals(KeyStores.IN_MEMORY_KEY_PROTECTION, first.getProtectionAlgorithm());
    PBEParameterSpec a = (PBEParameterSpec) first.getProtectionParameters();
    PBEParameterSpec b = (PBEParameterSpec) second.getProtectionParameters();
    assertEquals(1, a.getIterationCount());
    assertFalse(Arrays.equals(a.getSalt(), b.getSalt()));
    assertFalse(Arrays.equals(
        ((IvParameterSpec) a.getParameterSpec()).getIV(), ((IvParameterSpec) b.getParameterSpec()).getIV()));
  }

  @Test
  void aClientStoreHoldsTheWholeChain() throws Exception {
    ServingCertificate client = issue("client");

    KeyStore store = KeyStores.withKey(
        "tls", client.privateKey(), List.of(client.certificate(), CA.certificate()), "p".toCharArray());

    assertEquals(2, store.getCertificateChain("tls").length);
    assertEquals(CA.certificate(), store.getCertificateChain("tls")[1]);
  }
}
