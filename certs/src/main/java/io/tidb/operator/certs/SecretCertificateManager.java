package io.tidb.operator.certs;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Self-managed webhook certificates kept in a Secret. Each {@link #reconcile()} pass reads the
 * Secret, decides with {@link RenewalDecision#decide}, writes new certificates when needed and
 * makes the webhook configurations trust the stored CA bundle.
 *
 * <p>Several webhook replicas may run a pass at the same time. Writes are optimistic (create, or
 * replace at the resourceVersion read); the loser of a race gets 409, reads the winner's Secret and
 * uses that, so all replicas end with one certificate.
 *
 * <p>On a CA rotation the new bundle (new CA plus the old one) goes into the webhook
 * configurations <em>before</em> the Secret is written, so no replica serves a certificate that
 * the API server does not trust yet.
 */
public final class SecretCertificateManager {

  private static final Logger log = LoggerFactory.getLogger(SecretCertificateManager.class);

  private final CertificateSecretStore store;
  private final CaBundleInjector injector;
  private final CertificateRenewer renewer;
  private final ServingNames names;
  private final RenewalPolicy policy;
  private final Clock clock;

  public SecretCertificateManager(
      CertificateSecretStore store,
      CaBundleInjector injector,
      CertificateRenewer renewer,
      ServingNames names,
      RenewalPolicy policy,
      Clock clock) {
    this.store = store;
    this.injector = injector;
    this.renewer = renewer;
    this.names = names;
    this.policy = policy;
    this.clock = clock;
  }

  /** One pass; returns the certificates now stored in the Secret. */
  public WebhookCertificates reconcile() {
    Optional<Secret> secret = store.read();
    Optional<WebhookCertificates> existing = secret.flatMap(this::decodeOrEmpty);
    Instant now = clock.instant();
    RenewalDecision decision = RenewalDecision.decide(existing, names, now, policy);
    WebhookCertificates result;
    if (decision.action() == RenewalAction.NOOP) {
      result = existing.orElseThrow();
    } else {
      log.info(
          "certificate renewal secret={} action={} reason=\"{}\"",
          store.describe(),
          decision.action(),
          decision.reason());
      WebhookCertificates next = renewer.apply(decision.action(), existing, names, now, policy);
      if (decision.action() == RenewalAction.ROTATE_CA) {
        injector.inject(next.caBundlePem());
      }
      result = write(secret, next);
    }
    injector.inject(result.caBundlePem());
    return result;
  }

  private WebhookCertificates write(Optional<Secret> secret, WebhookCertificates next) {
    Map<String, String> data = CertificateSecretData.encode(next);
    try {
      if (secret.isPresent()) {
        store.replace(secret.get(), data);
      } else {
        store.create(data);
      }
      log.info(
          "certificate stored secret={} serving={} caNotAfter={}",
          store.describe(),
          next.serving().describe(),
          next.ca().certificate().getNotAfter().toInstant());
      return next;
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      Secret winner =
          store
              .read()
              .orElseThrow(
                  () -> new IllegalStateException("secret " + store.describe() + " vanished"));
      WebhookCertificates theirs = CertificateSecretData.decode(winner.getData());
      log.info(
          "certificate written concurrently by another replica, using theirs secret={} serving={}",
          store.describe(),
          theirs.serving().describe());
      return theirs;
    }
  }

  private Optional<WebhookCertificates> decodeOrEmpty(Secret secret) {
    try {
      return Optional.of(CertificateSecretData.decode(secret.getData()));
    } catch (IllegalArgumentException e) {
      log.warn(
          "certificate secret unreadable, replacing it secret={} error=\"{}\"",
          store.describe(),
          e.getMessage());
      return Optional.empty();
    }
  }
}
