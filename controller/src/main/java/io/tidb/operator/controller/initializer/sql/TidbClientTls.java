package io.tidb.operator.controller.initializer.sql;

import io.tidb.operator.certs.Pem;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.util.HexFormat;
import java.util.Properties;

/**
 * How the initializer connects to TiDB with {@code spec.tidb.tlsClient}: the driver properties
 * for MariaDB Connector/J, from the mounted client certificate Secret's files, as upstream's
 * initializer connects: TLS with the client certificate and key, and TiDB's certificate verified
 * against {@code ca.crt} unless {@code skipInternalClientCA} left the CA out.
 *
 * @param caFile {@code ca.crt}, or null not to verify TiDB's certificate
 * @param certFile {@code tls.crt}, the client certificate (with {@code keyFile}), or null
 * @param keyFile {@code tls.key}, or null
 */
public record TidbClientTls(String caFile, String certFile, String keyFile) {

  public TidbClientTls {
    if ((certFile == null) != (keyFile == null)) {
      throw new IllegalArgumentException("--tls-cert and --tls-key go together; got cert="
          + certFile + " key=" + keyFile);
    }
  }

  /** Whether the connection uses TLS at all. */
  public boolean enabled() {
    return caFile != null || certFile != null;
  }

  /**
   * The driver properties: {@code sslMode} {@code verify-ca} with {@code serverSslCert}, or
   * {@code trust}; with a client certificate, a PKCS#12 key store written to {@code dir}
   * (readable by this user only, deleted when the JVM exits).
   */
  public Properties properties(Path dir) throws IOException {
    Properties props = new Properties();
    if (!enabled()) {
      return props;
    }
    if (caFile != null) {
      props.setProperty("sslMode", "verify-ca");
      props.setProperty("serverSslCert", caFile);
    } else {
      props.setProperty("sslMode", "trust");
    }
    if (certFile != null) {
      char[] password = randomPassword();
      Path store = keyStore(dir, password);
      props.setProperty("keyStore", store.toUri().toString());
      props.setProperty("keyStorePassword", new String(password));
      props.setProperty("keyStoreType", "PKCS12");
    }
    return props;
  }

  private Path keyStore(Path dir, char[] password) throws IOException {
    String certPem = Files.readString(Path.of(certFile), StandardCharsets.UTF_8);
    String keyPem = Files.readString(Path.of(keyFile), StandardCharsets.UTF_8);
    Path file = Files.createTempFile(dir, "tidb-client-", ".p12",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    file.toFile().deleteOnExit();
    try (OutputStream out = Files.newOutputStream(file)) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("client", Pem.decodePrivateKey(keyPem), password,
          Pem.decodeCertificates(certPem).toArray(Certificate[]::new));
      store.store(out, password);
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot build the client key store from " + certFile + " and "
          + keyFile + ": " + e.getMessage(), e);
    }
    return file;
  }

  private static char[] randomPassword() {
    byte[] bytes = new byte[16];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes).toCharArray();
  }
}
