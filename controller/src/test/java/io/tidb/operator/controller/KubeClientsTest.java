package io.tidb.operator.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.ExponentialBackoffIntervalCalculator;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidb.operator.api.ApiObjects;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watch reconnect backoff docs/controller.md describes (0.25 s doubling to 8 s), the one JSON
 * mapping the client shares with the model's copies, and the API server trusted through the
 * cluster's CA alone ({@code ClusterCaTrust}).
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

  /** ClusterCaTrustTest has the cases; here, that the operator's configuration applies it. */
  @Test
  void aConfigNamingACaTrustsThatCaAlone() {
    Config config = KubeClients.configure(new ConfigBuilder(Config.empty()).withMasterUrl("https://127.0.0.1:6443")
        .withCaCertFile("/var/run/secrets/kubernetes.io/serviceaccount/ca.crt").build());
    assertNotNull(config.getTrustStoreFile(), "an empty trust store named instead of the JDK's");
  }

  @Test
  void theClientsCipherOrderStartsFromTheJdksDefaults() throws Exception {
    SSLParameters jdk = SSLContext.getDefault().getDefaultSSLParameters();
    SSLParameters read = KubeClients.CipherOrderedHttpClientFactory.defaultsOnly().getDefaultSSLParameters();
    assertEquals(List.of(jdk.getProtocols()), List.of(read.getProtocols()));
    assertEquals(List.of(jdk.getCipherSuites()), List.of(read.getCipherSuites()));
  }
}
