package io.tidb.operator.webhook;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.certs.CertificateWatcher;
import io.tidb.operator.certs.MountedCertificateFiles;
import io.tidb.operator.certs.MountedCopyVerdict;
import io.tidb.operator.certs.RenewalPolicy;
import io.tidb.operator.certs.ServingCertificate;
import io.tidb.operator.certs.ServingNames;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The assembled webhook: certificate source, TLS, admission rules and HTTPS server. Started by
 * {@link WebhookMain}; tests start it directly.
 */
public final class WebhookApplication implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(WebhookApplication.class);

  /**
   * Self-managed certificates: where they are kept and whom they are for.
   *
   * @param mountDir where the Secret is mounted into the pod ({@code tls.crt}, {@code tls.key}), or
   *     null; a copy there that a pass would keep is served at start, before the Secret is read
   */
  public record SecretSettings(
      String namespace,
      String secretName,
      ServingNames names,
      List<String> validatingConfigurations,
      List<String> mutatingConfigurations,
      RenewalPolicy policy,
      String caCommonName,
      Path mountDir) {
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
  private final SecretCertificateSource secretSource;

  private WebhookApplication(
      CertificateWatcher watcher, WebhookServer server, WebhookMetrics metrics,
      SecretCertificateSource secretSource) {
    this.watcher = watcher;
    this.server = server;
    this.metrics = metrics;
    this.secretSource = secretSource;
  }

  /**
   * Gets the first certificate (creating it in secret mode, unless the Secret's mounted copy may be
   * served, see {@link #mountedCopy}), starts serving {@code rules}, and from then on swaps in new
   * certificates as they appear.
   *
   * @param clients makes the Kubernetes client for secret mode; not called in files mode, and
   *     called after the server is up when the mounted copy is served
   */
  public static WebhookApplication start(
      Settings settings, List<AdmissionRules<?>> rules, Supplier<KubernetesClient> clients) {
    SecretCertificateSource secretSource = null;
    CertificateWatcher watcher;
    if (settings.mode() == CertificateMode.FILES) {
      MountedCertificateFiles files = MountedCertificateFiles.inDirectory(settings.certDir());
      watcher = new CertificateWatcher(files.toString(), files, settings.certCheckInterval());
    } else {
      secretSource = new SecretCertificateSource(clients, settings.secret());
      watcher = new CertificateWatcher(secretSource.toString(), secretSource, settings.certCheckInterval());
    }
    try {
      AdmissionRulesRegistry registry = new AdmissionRulesRegistry();
      rules.forEach(registry::register);
      AdmissionReviewCodec codec = new AdmissionReviewCodec(settings.server().limits());
      WebhookMetrics metrics = new WebhookMetrics();
      ServingCertificate initial = firstCertificate(settings, watcher, Instant.now());
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
      return new WebhookApplication(watcher, server, metrics, secretSource);
    } catch (RuntimeException e) {
      watcher.close();
      if (secretSource != null) {
        secretSource.close();
      }
      throw e;
    }
  }

  /** The mounted copy of the Secret when it may be served at once, else the source's first pass. */
  private static ServingCertificate firstCertificate(Settings settings, CertificateWatcher watcher, Instant now) {
    if (settings.mode() == CertificateMode.SECRET && settings.secret().mountDir() != null) {
      MountedCertificateFiles files = MountedCertificateFiles.inDirectory(settings.secret().mountDir());
      Optional<ServingCertificate> copy = mountedCopy(files, settings.secret(), now);
      if (copy.isPresent()) {
        return watcher.startFrom(copy.get(), files.toString());
      }
    }
    return watcher.load();
  }

  /**
   * The certificate Secret's serving certificate as the kubelet mounts it, if it may be served
   * before the Secret is read ({@link MountedCopyVerdict}): the server then starts without
   * waiting for the API server, and the Secret's first pass follows at once on the watcher's
   * thread. Empty (with the reason logged) when the volume is empty, as on the first install,
   * unreadable, or holds a certificate a pass would replace.
   */
  private static Optional<ServingCertificate> mountedCopy(MountedCertificateFiles files, SecretSettings secret, Instant now) {
    ServingCertificate copy;
    try {
      copy = files.get();
    } catch (UncheckedIOException e) {
      log.info("no mounted copy of the certificate Secret, reading the Secret {} error=\"{}\"",
          files, LogSafe.value(e.getMessage()));
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      log.warn("mounted copy of the certificate Secret unusable, reading the Secret {} error=\"{}\"",
          files, LogSafe.value(e.getMessage()));
      return Optional.empty();
    }
    MountedCopyVerdict verdict = MountedCopyVerdict.judge(copy, secret.names(), now, secret.policy());
    if (!verdict.usable()) {
      log.info("mounted copy of the certificate Secret not served, reading the Secret {} reason=\"{}\"",
          files, verdict.reason());
      return Optional.empty();
    }
    return Optional.of(copy);
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
    if (secretSource != null) {
      secretSource.close();
    }
  }
}
