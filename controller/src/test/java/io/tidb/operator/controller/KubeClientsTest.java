package io.tidb.operator.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.ExponentialBackoffIntervalCalculator;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidb.operator.api.ApiObjects;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watch reconnect backoff docs/controller.md describes (0.25 s doubling to 8 s), and the one
 * JSON mapping the client shares with the model's copies.
 */
class KubeClientsTest {

  @Test
  void watchesReconnectAfterAQuarterSecondDoublingToEightSeconds() {
    Config config = KubeClients.configure(new ConfigBuilder().withMasterUrl("https://127.0.0.1:6443").build());
    assertEquals(250, config.getWatchReconnectInterval());
    // fabric8's watch managers and informers back off with this calculator from that interval
    ExponentialBackoffIntervalCalculator backoff = new ExponentialBackoffIntervalCalculator(
        config.getWatchReconnectInterval(), ExponentialBackoffIntervalCalculator.UNLIMITED_RETRIES);
    assertEquals(250, backoff.getInterval(0));
    assertEquals(500, backoff.getInterval(1));
    assertEquals(8000, backoff.getInterval(5));
    assertEquals(8000, backoff.getInterval(20));
  }

  @Test
  void theClientMapsJsonWithTheModelsSerialization(@TempDir Path dir) throws Exception {
    Path kubeconfig = Files.writeString(dir.resolve("kubeconfig"), """
        apiVersion: v1
        kind: Config
        clusters: [{name: local, cluster: {server: "https://127.0.0.1:6443"}}]
        users: [{name: admin, user: {token: not-used}}]
        contexts: [{name: local, context: {cluster: local, user: admin}}]
        current-context: local
        """);
    try (KubernetesClient client = KubeClients.create(Optional.of(kubeconfig), new SimpleMeterRegistry(), 0)) {
      assertSame(ApiObjects.serialization(), client.getKubernetesSerialization());
    }
  }
}
