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
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.Supplier;
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
   * Makes every named configuration carry {@code caBundlePem}. The configurations are read and
   * patched at the same time, each on a thread of its own (the first on the caller's): at a first
   * install this pass stands between the webhook's start and its readiness, and each
   * configuration costs a read and a patch of the API server.
   *
   * @return how many configurations were changed
   * @throws KubernetesClientException the first configuration's failure, once all have finished
   */
  public int inject(String caBundlePem) {
    String wanted =
        Base64.getEncoder().encodeToString(caBundlePem.getBytes(StandardCharsets.UTF_8));
    List<Supplier<Boolean>> patches = new ArrayList<>();
    for (String name : validatingConfigurations) {
      patches.add(() -> patch("ValidatingWebhookConfiguration", name,
          client.admissionRegistration().v1().validatingWebhookConfigurations().withName(name), wanted,
          CaBundleInjector::entries));
    }
    for (String name : mutatingConfigurations) {
      patches.add(() -> patch("MutatingWebhookConfiguration", name,
          client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(name), wanted,
          CaBundleInjector::entries));
    }
    return (int) runTogether(patches).stream().filter(Boolean::booleanValue).count();
  }

  /**
   * Runs every task, all but the first on a thread of its own, and returns their results in
   * order once all have finished; the first failure (in order) is thrown then.
   */
  static <T> List<T> runTogether(List<Supplier<T>> tasks) {
    List<CompletableFuture<T>> running = new ArrayList<>();
    for (int i = 1; i < tasks.size(); i++) {
      running.add(CompletableFuture.supplyAsync(tasks.get(i), task -> {
        Thread thread = new Thread(task, "ca-bundle-injector");
        thread.setDaemon(true);
        thread.start();
      }));
    }
    List<T> results = new ArrayList<>();
    RuntimeException failure = null;
    if (!tasks.isEmpty()) {
      try {
        results.add(tasks.get(0).get());
      } catch (RuntimeException e) {
        failure = e;
      }
    }
    for (CompletableFuture<T> other : running) {
      try {
        results.add(other.join());
      } catch (CompletionException e) {
        if (failure == null) {
          failure = e.getCause() instanceof RuntimeException r ? r : e;
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
    return results;
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
