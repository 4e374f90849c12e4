package io.tidb.operator.controller.initializer.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.certs.Pem;
import io.tidb.operator.certs.ServingCertificate;
import io.tidb.operator.controller.fixtures.TestCertificates;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TidbClientTlsTest {

  @TempDir Path dir;

  @Test
  void noTlsWithoutFiles() throws Exception {
    TidbClientTls none = new TidbClientTls(null, null, null);
    assertFalse(none.enabled());
    assertTrue(none.properties(dir).isEmpty());
  }

  @Test
  void theCaIsVerifiedAndTheClientCertificatePresentedFromAPrivateKeyStore() throws Exception {
    TestCertificates certs = TestCertificates.newCa("tidb-ca");
    ServingCertificate client = certs.peer(List.of("TiDB"));
    Path crt = Files.writeString(dir.resolve("tls.crt"), Pem.encodeCertificate(client.certificate()));
    Path key = Files.writeString(dir.resolve("tls.key"), Pem.encodePrivateKey(client.privateKey()));
    Properties p = new TidbClientTls("/tls/ca.crt", crt.toString(), key.toString()).properties(dir);
    assertEquals("verify-ca", p.getProperty("sslMode"));
    assertEquals("/tls/ca.crt", p.getProperty("serverSslCert"));
    assertEquals("PKCS12", p.getProperty("keyStoreType"));
    Path store = Path.of(URI.create(p.getProperty("keyStore")));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(store)));
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      ks.load(in, p.getProperty("keyStorePassword").toCharArray());
    }
    assertEquals(client.certificate(), ks.getCertificate("client"));
  }

  @Test
  void skippingTheCaTrustsTheServer() throws Exception {
    TestCertificates certs = TestCertificates.newCa("tidb-ca");
    ServingCertificate client = certs.peer(List.of("TiDB"));
    Path crt = Files.writeString(dir.resolve("tls.crt"), Pem.encodeCertificate(client.certificate()));
    Path key = Files.writeString(dir.resolve("tls.key"), Pem.encodePrivateKey(client.privateKey()));
    Properties p = new TidbClientTls(null, crt.toString(), key.toString()).properties(dir);
    assertEquals("trust", p.getProperty("sslMode"));
    assertFalse(p.containsKey("serverSslCert"));
  }

  @Test
  void aCertificateWithoutItsKeyIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new TidbClientTls(null, "/tls/tls.crt", null));
    assertEquals("--tls-cert and --tls-key go together; got cert=/tls/tls.crt key=null", e.getMessage());
  }
}
