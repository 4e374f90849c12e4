package io.tidb.operator.webhook;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.certs.CaBundleInjector;
import io.tidb.operator.certs.CertificateIssuer;
import io.tidb.operator.certs.CertificateRenewer;
import io.tidb.operator.certs.CertificateSecretStore;
import io.tidb.operator.certs.CertificateWatcher;
import io.tidb.operator.certs.MountedCertificateFiles;
import io.tidb.operator.certs.RenewalPolicy;
import io.tidb.operator.certs.SecretCertificateManager;
import io.tidb.operator.certs.ServingCertificate;
import io.tidb.operator.certs.ServingNames;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The assembled webhook: certificate source, TLS, admission rules and HTTPS server. Started by
 * {@link WebhookMain}; tests start it directly.
 */
public final class WebhookApplication implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(WebhookApplication.class);

  /** Self-managed certificates: where they are kept and whom they are for. */
  public record SecretSettings(
      String namespace,
      String secretName,
      ServingNames names,
      List<String> validatingConfigurations,
      List<String> mutatingConfigurations,
      RenewalPolicy policy,
      String caCommonName) {
    public SecretSettings {
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(secretName, "secretName");
      validatingConfigurations = List.copyOf(validatingConfigurations);
      mutatingConfigurations = List.copyOf(mutatingConfigurations);
    }
  }

  /**
   * @param server the HTTPS server settings
   * @param mode {@link CertificateMode#SECRET} or {@link CertificateMode#FILES}
   * @param certDir directory with tls.crt and tls.key (files mode)
   * @param secret self-managed certificate settings (secret mode)
   * @param certCheckInterval how often certificates are re-read (and renewed in secret mode)
   */
  public record Settings(
      WebhookServer.Settings server,
      CertificateMode mode,
      Path certDir,
      SecretSettings secret,
      Duration certCheckInterval) {
    public Settings {
      if (mode == CertificateMode.FILES && certDir == null) {
        throw new IllegalArgumentException("files mode needs a certificate directory (--cert-dir)");
      }
      if (mode == CertificateMode.SECRET && secret == null) {
        throw new IllegalArgumentException("secret mode needs a namespace (--namespace or $POD_NAMESPACE)");
      }
      if (mode == CertificateMode.AUTO) {
        throw new IllegalArgumentException("resolve the certificate mode before starting");
      }
    }
  }

  private final CertificateWatcher watcher;
  private final WebhookServer server;
  private final WebhookMetrics metrics;
  private final KubernetesClient client;

  private WebhookApplication(
      CertificateWatcher watcher, WebhookServer server, WebhookMetrics metrics, KubernetesClient client) {
    this.watcher = watcher;
    this.server = server;
    this.metrics = metrics;
    this.client = client;
  }

  /**
   * Gets the first certificate (creating it in secret mode), starts serving {@code rules}, and
   * from then on swaps in new certificates as they appear.
   *
   * @param clients makes the Kubernetes client for secret mode; not called in files mode
   */
  public static WebhookApplication start(
      Settings settings, List<AdmissionRules<?>> rules, Supplier<KubernetesClient> clients) {
    KubernetesClient client = null;
    CertificateWatcher watcher;
    if (settings.mode() == CertificateMode.FILES) {
      MountedCertificateFiles files = MountedCertificateFiles.inDirectory(settings.certDir());
      watcher = new CertificateWatcher(files.toString(), files, settings.certCheckInterval());
    } else {
      client = clients.get();
      SecretCertificateManager manager = secretManager(client, settings.secret());
      watcher = new CertificateWatcher(
          "secret=" + settings.secret().namespace() + "/" + settings.secret().secretName(),
          () -> manager.reconcile().serving(),
          settings.certCheckInterval());
    }
    try {
      AdmissionRulesRegistry registry = new AdmissionRulesRegistry();
      rules.forEach(registry::register);
      AdmissionReviewCodec codec = new AdmissionReviewCodec(settings.server().limits());
      WebhookMetrics metrics = new WebhookMetrics();
      ServingCertificate initial = watcher.load();
      ServingTls tls = new ServingTls(initial);
      metrics.certificateServed(initial, false);
      WebhookServer server = new WebhookServer(
          settings.server(), new AdmissionService(registry, codec), codec, metrics, tls).start();
      metrics.bindJvmMetricsInBackground();
      watcher.watch(next -> {
        try {
          tls.use(next);
        } catch (Exception e) {
          throw new IllegalStateException("cannot load the new certificate into TLS", e);
        }
        metrics.certificateServed(next, true);
      });
      log.info("webhook started mode={} served={} port={}",
          settings.mode().name().toLowerCase(java.util.Locale.ROOT), registry.served(), server.port());
      return new WebhookApplication(watcher, server, metrics, client);
    } catch (RuntimeException e) {
      watcher.close();
      if (client != null) {
        client.close();
      }
      throw e;
    }
  }

  public int port() {
    return server.port();
  }

  public WebhookMetrics metrics() {
    return metrics;
  }

  /** Stops serving (gracefully), stops watching certificates, closes the client. */
  @Override
  public void close() {
    server.stop();
    watcher.close();
    if (client != null) {
      client.close();
    }
  }

  private static SecretCertificateManager secretManager(KubernetesClient client, SecretSettings s) {
    return new SecretCertificateManager(
        new CertificateSecretStore(client, s.namespace(), s.secretName()),
        new CaBundleInjector(client, s.validatingConfigurations(), s.mutatingConfigurations()),
        new CertificateRenewer(new CertificateIssuer(), s.caCommonName()),
        s.names(),
        s.policy(),
        Clock.systemUTC());
  }
}
