package io.tidb.operator.webhook;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.tidb.operator.certs.CaBundleInjector;
import io.tidb.operator.certs.CertificateIssuer;
import io.tidb.operator.certs.CertificateRenewer;
import io.tidb.operator.certs.CertificateSecretStore;
import io.tidb.operator.certs.SecretCertificateManager;
import io.tidb.operator.certs.ServingCertificate;
import java.time.Clock;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Secret mode's certificate source: each {@link #get()} is one pass of {@link
 * SecretCertificateManager} (read the Secret, renew what is due, keep the webhook configurations'
 * CA bundle) and returns the serving certificate it leaves stored. The Kubernetes client and the
 * manager are built on the first pass, so a start that serves the mounted copy of the Secret
 * builds them on the certificate watcher's thread, after the server is up.
 */
final class SecretCertificateSource implements Supplier<ServingCertificate>, AutoCloseable {

  private final Supplier<KubernetesClient> clients;
  private final WebhookApplication.SecretSettings settings;
  private KubernetesClient client;
  private SecretCertificateManager manager;
  private boolean closed;

  SecretCertificateSource(Supplier<KubernetesClient> clients, WebhookApplication.SecretSettings settings) {
    this.clients = Objects.requireNonNull(clients, "clients");
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  /** For logs, e.g. {@code secret=tidb-admin/tidb-operator-webhook-tls}. */
  @Override
  public String toString() {
    return "secret=" + settings.namespace() + "/" + settings.secretName();
  }

  @Override
  public ServingCertificate get() {
    return manager().reconcile().serving();
  }

  private synchronized SecretCertificateManager manager() {
    if (closed) {
      throw new IllegalStateException("closed");
    }
    if (manager == null) {
      client = clients.get();
      manager = new SecretCertificateManager(
          new CertificateSecretStore(client, settings.namespace(), settings.secretName()),
          new CaBundleInjector(client, settings.validatingConfigurations(), settings.mutatingConfigurations()),
          new CertificateRenewer(new CertificateIssuer(), settings.caCommonName()),
          settings.names(),
          settings.policy(),
          Clock.systemUTC());
    }
    return manager;
  }

  /** Closes the client, if a pass built it; no pass starts afterwards. */
  @Override
  public void close() {
    KubernetesClient built;
    synchronized (this) {
      closed = true;
      built = client;
    }
    if (built != null) {
      built.close();
    }
  }
}
