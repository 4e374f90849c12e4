package io.tidb.operator.webhook;

import io.tidb.operator.certs.KeyStores;
import io.tidb.operator.certs.ServingCertificate;
import java.security.SecureRandom;
import java.util.Base64;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The server's TLS settings: TLS 1.2 and 1.3 only, the current serving certificate, and a
 * hot swap of that certificate. Connections already open keep their session; new handshakes get
 * the new certificate, so no request fails during a swap.
 */
public final class ServingTls {

  private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

  private final SslContextFactory.Server factory = new SslContextFactory.Server();
  private final String password;

  public ServingTls(ServingCertificate initial) {
    byte[] random = new byte[18];
    new SecureRandom().nextBytes(random);
    // Protects the in-memory key store only; never leaves the process.
    this.password = Base64.getEncoder().encodeToString(random);
    factory.setIncludeProtocols(PROTOCOLS);
    factory.setSniRequired(false);
    factory.setKeyStorePassword(password);
    factory.setKeyManagerPassword(password);
    factory.setKeyStore(KeyStores.serving(initial, password.toCharArray()));
  }

  SslContextFactory.Server factory() {
    return factory;
  }

  /** Serves {@code next} from now on. */
  public synchronized void use(ServingCertificate next) throws Exception {
    if (factory.isStarted()) {
      factory.reload(f -> f.setKeyStore(KeyStores.serving(next, password.toCharArray())));
    } else {
      factory.setKeyStore(KeyStores.serving(next, password.toCharArray()));
    }
  }
}
