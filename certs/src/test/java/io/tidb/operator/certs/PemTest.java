package io.tidb.operator.certs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.util.io.pem.PemObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PemTest {

  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private final CertificateIssuer issuer = new CertificateIssuer();

  @Test
  void certificatesRoundTripInOrder() throws Exception {
    CertificateAuthority a = issuer.newAuthority("a", NOW, Duration.ofDays(1), KeyAlgorithm.EC_P256);
    CertificateAuthority b = issuer.newAuthority("b", NOW, Duration.ofDays(1), KeyAlgorithm.RSA_2048);

    String pem = Pem.encodeCertificates(List.of(a.certificate(), b.certificate()));

    assertTrue(pem.startsWith("-----BEGIN CERTIFICATE-----"));
    var decoded = Pem.decodeCertificates(pem);
    assertEquals(2, decoded.size());
    assertArrayEquals(a.certificate().getEncoded(), decoded.get(0).getEncoded());
    assertArrayEquals(b.certificate().getEncoded(), decoded.get(1).getEncoded());
  }

  @ParameterizedTest
  @EnumSource(KeyAlgorithm.class)
  void privateKeysRoundTripAsPkcs8(KeyAlgorithm algorithm) {
    PrivateKey key = algorithm.generateKeyPair().getPrivate();

    String pem = Pem.encodePrivateKey(key);

    assertTrue(pem.startsWith("-----BEGIN PRIVATE KEY-----"), pem);
    assertArrayEquals(key.getEncoded(), Pem.decodePrivateKey(pem).getEncoded());
  }

  @ParameterizedTest
  @EnumSource(KeyAlgorithm.class)
  void readsTraditionalOpenSslKeyFormats(KeyAlgorithm algorithm) throws Exception {
    KeyPair pair = algorithm.generateKeyPair();
    // What `openssl ecparam -genkey` (SEC1, curve named inside) and `openssl genrsa` (PKCS#1) write.
    PrivateKeyInfo info = PrivateKeyInfo.getInstance(pair.getPrivate().getEncoded());
    PemObject traditional;
    if (algorithm == KeyAlgorithm.EC_P256) {
      ECPrivateKey inner = ECPrivateKey.getInstance(info.parsePrivateKey());
      ECPrivateKey sec1 =
          new ECPrivateKey(256, inner.getKey(), info.getPrivateKeyAlgorithm().getParameters());
      traditional = new PemObject("EC PRIVATE KEY", sec1.getEncoded());
    } else {
      traditional = new PemObject("RSA PRIVATE KEY", info.parsePrivateKey().toASN1Primitive().getEncoded());
    }
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(traditional);
    }

    PrivateKey decoded = Pem.decodePrivateKey(out.toString());

    assertTrue(KeyPairs.matches(pair.getPublic(), decoded));
  }

  @Test
  void garbageIsRefusedWithAReason() {
    assertEquals(
        "no CERTIFICATE block found",
        assertThrows(Pem.PemException.class, () -> Pem.decodeCertificates("hello")).getMessage());
    assertEquals(
        "no unencrypted PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY block found",
        assertThrows(Pem.PemException.class, () -> Pem.decodePrivateKey("")).getMessage());
    String keyPem = Pem.encodePrivateKey(KeyAlgorithm.EC_P256.generateKeyPair().getPrivate());
    assertTrue(
        assertThrows(Pem.PemException.class, () -> Pem.decodeCertificates(keyPem))
            .getMessage()
            .startsWith("expected CERTIFICATE blocks, found"));
  }

  @Test
  void textAroundTheBlocksOrOtherBlocksAmongThemAreReadAsBeforeByBouncyCastle() {
    CertificateAuthority a = issuer.newAuthority("a", NOW, Duration.ofDays(1), KeyAlgorithm.EC_P256);
    String certificatePem = Pem.encodeCertificates(List.of(a.certificate()));
    String keyPem = Pem.encodePrivateKey(KeyAlgorithm.RSA_2048.generateKeyPair().getPrivate());

    assertEquals(a.certificate(), Pem.decodeCertificate("Bag Attributes\n    friendlyName: a\n" + certificatePem));
    assertTrue(assertThrows(Pem.PemException.class, () -> Pem.decodeCertificates(certificatePem + keyPem))
        .getMessage().startsWith("expected CERTIFICATE blocks, found"));
    assertEquals("RSA", Pem.decodePrivateKey(keyPem + certificatePem).getAlgorithm());
    String[] lines = certificatePem.split("\n");
    lines[1] = lines[1].charAt(0) + "A" + lines[1].substring(2);   // the DER's outer length broken
    String broken = String.join("\n", lines);
    assertTrue(assertThrows(Pem.PemException.class, () -> Pem.decodeCertificates(broken))
        .getMessage().startsWith("malformed certificate PEM"));
  }
}
