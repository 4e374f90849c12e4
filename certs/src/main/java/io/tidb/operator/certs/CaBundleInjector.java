package io.tidb.operator.certs;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts the CA bundle into {@code clientConfig.caBundle} of every webhook entry of the named
 * ValidatingWebhookConfigurations and MutatingWebhookConfigurations. Needs RBAC {@code get} and
 * {@code patch} on those objects. A configuration that does not exist yet is skipped with a
 * warning; the next pass tries again.
 */
public final class CaBundleInjector {

  private static final Logger log = LoggerFactory.getLogger(CaBundleInjector.class);
  private static final int ATTEMPTS = 3;

  private final KubernetesClient client;
  private final List<String> validatingConfigurations;
  private final List<String> mutatingConfigurations;

  public CaBundleInjector(
      KubernetesClient client,
      List<String> validatingConfigurations,
      List<String> mutatingConfigurations) {
    this.client = client;
    this.validatingConfigurations = List.copyOf(validatingConfigurations);
    this.mutatingConfigurations = List.copyOf(mutatingConfigurations);
  }

  /**
   * Makes every named configuration carry {@code caBundlePem}.
   *
   * @return how many configurations were changed
   */
  public int inject(String caBundlePem) {
    String wanted =
        Base64.getEncoder().encodeToString(caBundlePem.getBytes(StandardCharsets.UTF_8));
    int changed = 0;
    for (String name : validatingConfigurations) {
      Resource<ValidatingWebhookConfiguration> resource =
          client.admissionRegistration().v1().validatingWebhookConfigurations().withName(name);
      if (patch("ValidatingWebhookConfiguration", name, resource, wanted, CaBundleInjector::entries)) {
        changed++;
      }
    }
    for (String name : mutatingConfigurations) {
      Resource<MutatingWebhookConfiguration> resource =
          client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(name);
      if (patch("MutatingWebhookConfiguration", name, resource, wanted, CaBundleInjector::entries)) {
        changed++;
      }
    }
    return changed;
  }

  private static <T> boolean patch(
      String kind,
      String name,
      Resource<T> resource,
      String wanted,
      Function<T, List<CaBundlePatch.Entry>> entriesOf) {
    for (int attempt = 1; ; attempt++) {
      T current = resource.get();
      if (current == null) {
        log.warn("webhook configuration not found, caBundle not set kind={} name={}", kind, name);
        return false;
      }
      List<Map<String, Object>> ops = CaBundlePatch.operations(entriesOf.apply(current), wanted);
      if (ops.isEmpty()) {
        return false;
      }
      try {
        resource.patch(PatchContext.of(PatchType.JSON), Serialization.asJson(ops));
        log.info("caBundle set kind={} name={} webhooks={}", kind, name, ops.size() / 2);
        return true;
      } catch (KubernetesClientException e) {
        // 422: a test op failed because the entries changed since the read; 409: conflict.
        boolean retriable = e.getCode() == 409 || e.getCode() == 422;
        if (!retriable || attempt >= ATTEMPTS) {
          throw e;
        }
        log.info(
            "caBundle patch raced with another writer, retrying kind={} name={} code={}",
            kind,
            name,
            e.getCode());
      }
    }
  }

  private static List<CaBundlePatch.Entry> entries(ValidatingWebhookConfiguration configuration) {
    List<ValidatingWebhook> webhooks =
        configuration.getWebhooks() == null ? List.of() : configuration.getWebhooks();
    return webhooks.stream().map(w -> entry(w.getName(), w.getClientConfig())).toList();
  }

  private static List<CaBundlePatch.Entry> entries(MutatingWebhookConfiguration configuration) {
    List<MutatingWebhook> webhooks =
        configuration.getWebhooks() == null ? List.of() : configuration.getWebhooks();
    return webhooks.stream().map(w -> entry(w.getName(), w.getClientConfig())).toList();
  }

  private static CaBundlePatch.Entry entry(String name, WebhookClientConfig config) {
    return new CaBundlePatch.Entry(name, config == null ? null : config.getCaBundle(), config != null);
  }
}
