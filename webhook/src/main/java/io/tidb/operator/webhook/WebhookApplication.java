package io.tidb.operator.webhook;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.certs.CertificateAuthority;
import io.tidb.operator.certs.CertificateIssuer;
import io.tidb.operator.certs.CertificateWatcher;
import io.tidb.operator.certs.KeyAlgorithm;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
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
   * <p>When the first certificate needs a pass over the Secret (secret mode with no usable mounted
   * copy, as at a first install), the pass runs on its own thread while this one builds and starts
   * the server: the server listens with a placeholder certificate that nothing trusts and answers
   * {@code /readyz} with 503 until the pass's certificate is in, so the API server (which calls
   * only ready endpoints, and trusts only the Secret's CA) never meets the placeholder. The server
   * used to be built only after the pass (about 0.3 s, at a first start of 2.1 s to ready).
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
    WebhookServer server = null;
    try {
      Optional<ServingCertificate> known = settings.mode() == CertificateMode.FILES
          ? Optional.of(watcher.load())
          : mountedCopy(settings.secret(), watcher, Instant.now());
      CompletableFuture<ServingCertificate> firstPass = known.isPresent()
          ? CompletableFuture.completedFuture(known.get())
          : firstPassInBackground(watcher);
      AdmissionRulesRegistry registry = new AdmissionRulesRegistry();
      rules.forEach(registry::register);
      AdmissionReviewCodec codec = new AdmissionReviewCodec(settings.server().limits());
      WebhookMetrics metrics = new WebhookMetrics();
      ServingTls tls = new ServingTls(known.orElseGet(() -> placeholder(settings.secret().names())));
      server = new WebhookServer(settings.server(), new AdmissionService(registry, codec), codec, metrics, tls)
          .listen();
      ServingCertificate initial = awaitFirstPass(firstPass);
      if (known.isEmpty()) {
        tls.use(initial);
      }
      metrics.certificateServed(initial, false);
      server.markReady();
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
    } catch (Exception e) {
      if (server != null) {
        server.stopNow();
      }
      watcher.close();
      if (secretSource != null) {
        secretSource.close();
      }
      throw e instanceof RuntimeException r ? r : new IllegalStateException("cannot start the webhook", e);
    }
  }

  /** The pass over the Secret that yields the first certificate, on a thread of its own. */
  private static CompletableFuture<ServingCertificate> firstPassInBackground(CertificateWatcher watcher) {
    CompletableFuture<ServingCertificate> pass = new CompletableFuture<>();
    Thread thread = new Thread(() -> {
      try {
        pass.complete(watcher.load());
      } catch (Throwable t) {
        pass.completeExceptionally(t);
      }
    }, "certificate-first-pass");
    thread.setDaemon(true);
    thread.start();
    return pass;
  }

  /** The first pass's certificate; its failure as it was thrown (there is nothing to serve). */
  private static ServingCertificate awaitFirstPass(CompletableFuture<ServingCertificate> pass) {
    try {
      return pass.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw e;
    }
  }

  /**
   * A certificate for the served names that no client trusts (its own CA, thrown away), served
   * only while the server is not ready, until the first pass's certificate replaces it.
   */
  private static ServingCertificate placeholder(ServingNames names) {
    CertificateIssuer issuer = new CertificateIssuer();
    Instant now = Instant.now();
    CertificateAuthority ca = issuer.newAuthority("webhook placeholder (not ready)", now, Duration.ofHours(1), KeyAlgorithm.EC_P256);
    return issuer.issueServing(ca, names, now, Duration.ofHours(1), KeyAlgorithm.EC_P256);
  }

  /**
   * The Secret's mounted copy, started from, when secret mode has a mount and the copy may be
   * served at once; else empty (a pass over the Secret gives the first certificate).
   */
  private static Optional<ServingCertificate> mountedCopy(SecretSettings secret, CertificateWatcher watcher, Instant now) {
    if (secret.mountDir() == null) {
      return Optional.empty();
    }
    MountedCertificateFiles files = MountedCertificateFiles.inDirectory(secret.mountDir());
    return mountedCopy(files, secret, now).map(copy -> watcher.startFrom(copy, files.toString()));
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
