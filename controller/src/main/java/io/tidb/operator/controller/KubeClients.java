package io.tidb.operator.controller;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.MeterRegistry;
import io.tidb.operator.controller.runtime.KubeApiRateLimit;
import io.tidb.operator.controller.runtime.KubeApiRequestMetrics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Builds the operator's Kubernetes client: the default configuration, with request metrics and the
 * client-side rate limit.
 */
public final class KubeClients {

  private KubeClients() {}

  /**
   * A client for the given kubeconfig file, else configured the usual fabric8 way ({@code
   * KUBECONFIG}, {@code ~/.kube/config} or the in-cluster service account), counting every request
   * in {@code registry} and sending at most {@code qps} requests per second other than watches
   * (no limit when 0).
   */
  public static KubernetesClient create(
      Optional<Path> kubeconfig, MeterRegistry registry, double qps) {
    KubernetesClientBuilder builder = new KubernetesClientBuilder();
    kubeconfig.ifPresent(file -> builder.withConfig(Config.fromKubeconfig(read(file))));
    KubeApiRequestMetrics metrics = new KubeApiRequestMetrics(registry);
    KubeApiRateLimit limit = qps > 0 ? KubeApiRateLimit.perSecond(qps, registry) : null;
    return builder
        .withHttpClientBuilderConsumer(
            b -> {
              if (limit != null) {
                b.addOrReplaceInterceptor(KubeApiRateLimit.NAME, limit);
              }
              b.addOrReplaceInterceptor(KubeApiRequestMetrics.NAME, metrics);
            })
        .build();
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("--kubeconfig: cannot read " + file, e);
    }
  }
}
