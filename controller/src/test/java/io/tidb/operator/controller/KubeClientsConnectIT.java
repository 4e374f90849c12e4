package io.tidb.operator.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.internal.SSLUtils;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.net.http.HttpClient;
import java.security.KeyManagementException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import org.junit.jupiter.api.Test;

/**
 * {@link KubeClients#connect} leaves the requests that follow it one HTTP/2 connection to share
 * against a real kube-apiserver; without it, requests sent together on a new client each open a
 * TLS connection of their own (the controller's start made eight). Connections are counted as the
 * TLS engines the client's SSL context creates, one per connection.
 */
@WithLocalControlPlane
class KubeClientsConnectIT {

  private static final int TOGETHER = 16;

  @Test
  void requestsAfterConnectShareOneConnection(ClusterAccess access) throws Exception {
    AtomicInteger connections = new AtomicInteger();
    try (KubernetesClient client = countingClient(access, connections)) {
      KubeClients.connect(client).get(10, TimeUnit.SECONDS);
      getTogether(client);
    }
    assertEquals(1, connections.get(), "TLS connections");
  }

  /** The premise: without it the same requests open several connections. */
  @Test
  void requestsSentTogetherOnANewClientOpenSeveral(ClusterAccess access) throws Exception {
    AtomicInteger connections = new AtomicInteger();
    try (KubernetesClient client = countingClient(access, connections)) {
      getTogether(client);
    }
    assertTrue(connections.get() > 1, "TLS connections: " + connections.get());
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

  /** A client configured as the controller's (its HTTP client fabric8's JDK one), whose TLS engines are counted. */
  private static KubernetesClient countingClient(ClusterAccess access, AtomicInteger connections)
      throws Exception {
    Config config = KubeClients.configure(Config.fromKubeconfig(access.kubeConfigYaml()));
    SSLContext counting = new CountingContext(
        SSLUtils.sslContext(SSLUtils.keyManagers(config), SSLUtils.trustManagers(config)), connections);
    return new KubernetesClientBuilder().withConfig(config)
        .withHttpClientFactory(new JdkHttpClientFactory() {
          @Override
          protected void additionalConfig(HttpClient.Builder builder) {
            builder.sslContext(counting);
          }
        })
        .build();
  }

  /** An SSL context that counts the client engines it creates, otherwise its delegate. */
  private static final class CountingContext extends SSLContext {
    CountingContext(SSLContext delegate, AtomicInteger engines) {
      super(new SSLContextSpi() {
        @Override
        protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom random)
            throws KeyManagementException {
          throw new KeyManagementException("already initialised");
        }

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
          return delegate.getSocketFactory();
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
          return delegate.getServerSocketFactory();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
          engines.incrementAndGet();
          return delegate.createSSLEngine();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
          engines.incrementAndGet();
          return delegate.createSSLEngine(host, port);
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
          return delegate.getServerSessionContext();
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
          return delegate.getClientSessionContext();
        }

        @Override
        protected javax.net.ssl.SSLParameters engineGetDefaultSSLParameters() {
          return delegate.getDefaultSSLParameters();
        }

        @Override
        protected javax.net.ssl.SSLParameters engineGetSupportedSSLParameters() {
          return delegate.getSupportedSSLParameters();
        }
      }, delegate.getProvider(), delegate.getProtocol());
    }
  }
}
