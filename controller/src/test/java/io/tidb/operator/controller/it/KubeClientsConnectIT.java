package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.tidb.operator.controller.KubeClients;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * {@link KubeClients#connect} leaves the requests that follow it one HTTP/2 connection to share
 * against a real kube-apiserver; without it, requests sent together on a new client each open a
 * TLS connection of their own (the controller's start made eight). The client reaches the API
 * server through a {@link LoopbackTcpProxy} that counts the connections.
 */
@WithLocalControlPlane
class KubeClientsConnectIT {

  private static final int TOGETHER = 16;

  @Test
  void requestsAfterConnectShareOneConnection(ClusterAccess access) throws Exception {
    int connections = connectionsOpened(access,
        client -> KubeClients.awaitConnection(KubeClients.connect(client)));
    assertEquals(1, connections, "TLS connections");
  }

  /** The premise: without it the same requests open several connections. */
  @Test
  void requestsSentTogetherOnANewClientOpenSeveral(ClusterAccess access) throws Exception {
    int connections = connectionsOpened(access, client -> { });
    assertTrue(connections > 1, "TLS connections: " + connections);
  }

  /**
   * The connections a new client configured as the controller's opens for {@code before}, then
   * {@value #TOGETHER} GETs sent together.
   */
  private static int connectionsOpened(ClusterAccess access, Consumer<KubernetesClient> before)
      throws Exception {
    Config config = KubeClients.configure(Config.fromKubeconfig(access.kubeConfigYaml()));
    URI server = URI.create(config.getMasterUrl());
    try (LoopbackTcpProxy proxy = LoopbackTcpProxy.start(new InetSocketAddress(server.getHost(), server.getPort()))) {
      config.setMasterUrl("https://127.0.0.1:" + proxy.port());
      try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
        before.accept(client);
        getTogether(client);
      }
      return proxy.accepted();
    }
  }

  private static void getTogether(KubernetesClient client) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(TOGETHER);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<CompletableFuture<Void>> gets = new ArrayList<>();
      for (int i = 0; i < TOGETHER; i++) {
        gets.add(CompletableFuture.runAsync(() -> {
          try {
            go.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          assertEquals("default", client.namespaces().withName("default").get().getMetadata().getName());
        }, pool));
      }
      go.countDown();
      CompletableFuture.allOf(gets.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
    } finally {
      pool.shutdownNow();
    }
  }
}
