package io.tidb.operator.certs;

import io.fabric8.kubernetes.client.Config;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Optional;
import org.slf4j.LoggerFactory;

/**
 * The API server's certificate trusted only when the cluster's CA signed it, as client-go trusts
 * it, for every Kubernetes client of the operator's processes (the controller and the webhook).
 *
 * <p>fabric8 adds the configured CA's certificates to a trust store: the JDK's own (about 140
 * public authorities, read from disk and parsed at every start: 0.1–0.15 s of a start on two
 * cores) unless the configuration names another. When the configuration names a CA and neither a
 * trust store nor skipping verification, {@link #only} names an empty one, so the CA alone is
 * trusted.
 */
public final class ClusterCaTrust {

  /** Protects nothing: the store holds no entry. fabric8 needs one to read it. */
  static final String PASSPHRASE = "empty";

  private static final Optional<Path> EMPTY_STORE = writeEmptyStore();

  private ClusterCaTrust() {}

  /**
   * {@code config}, changed to trust the cluster's CA alone when it names one (data or file) and
   * neither a trust store of its own nor skipping verification; otherwise unchanged.
   */
  public static Config only(Config config) {
    boolean namesCa = present(config.getCaCertData()) || present(config.getCaCertFile());
    if (namesCa && !config.isTrustCerts() && !present(config.getTrustStoreFile())) {
      EMPTY_STORE.ifPresent(file -> {
        config.setTrustStoreFile(file.toString());
        config.setTrustStorePassphrase(PASSPHRASE);
      });
    }
    return config;
  }

  private static boolean present(String value) {
    return value != null && !value.isBlank();
  }

  /**
   * A key store file with no entry, written once per process to a temporary file (the pod's
   * {@code /tmp}), for fabric8 to add the cluster's CA to. Absent, with a warning, when no
   * temporary file can be written: the client then trusts the JDK's authorities too.
   */
  private static Optional<Path> writeEmptyStore() {
    try {
      Path file = Files.createTempFile("tidb-operator-trust-", ".jks");
      file.toFile().deleteOnExit();
      KeyStore store = KeyStore.getInstance("JKS");
      store.load(null, null);
      try (OutputStream out = Files.newOutputStream(file)) {
        store.store(out, PASSPHRASE.toCharArray());
      }
      return Optional.of(file);
    } catch (IOException | GeneralSecurityException e) {
      LoggerFactory.getLogger(ClusterCaTrust.class).warn(
          "cannot write an empty trust store, the API server's certificate is checked against the"
              + " JDK's authorities as well as the cluster's CA error=\"{}\"", e.toString());
      return Optional.empty();
    }
  }
}
