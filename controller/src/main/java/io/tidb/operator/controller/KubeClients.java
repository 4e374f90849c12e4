package io.tidb.operator.controller;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.TlsVersion;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.utils.URLUtils;
import io.micrometer.core.instrument.MeterRegistry;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.certs.ClusterCaTrust;
import io.tidb.operator.controller.runtime.AsciiWatchBodies;
import io.tidb.operator.controller.runtime.KubeApiRateLimit;
import io.tidb.operator.controller.runtime.KubeApiRequestMetrics;
import io.tidb.operator.pd.CipherSuitePreference;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;

/**
 * Builds the operator's Kubernetes client: the default configuration, with request metrics, the
 * client-side rate limit and watch events handed on as ASCII ({@link AsciiWatchBodies}). The
 * client maps JSON with {@link ApiObjects#serialization()}, the mapping the model's copies and
 * defaults already use: Jackson builds and keeps its (de)serializers per mapper, so with a mapper
 * of its own the client would hold a second set for every kind both handle (2.6–2.9 MiB of heap
 * and 27–55 ms of CPU under C1 for the TidbCluster model alone).
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
    return create(
        kubeconfig.map(file -> Config.fromKubeconfig(read(file))).orElseGet(() -> new ConfigBuilder().build()),
        registry, qps, http -> { });
  }

  /**
   * As {@link #create(Optional, MeterRegistry, double)} for {@code config} ({@link #configure}d
   * here), {@code more} given the HTTP client's builder last (a test's request recorders): the
   * integration tests' operators get the process's client this way.
   */
  public static KubernetesClient create(
      Config config, MeterRegistry registry, double qps, Consumer<HttpClient.Builder> more) {
    configure(config);
    KubernetesClientBuilder builder = new KubernetesClientBuilder().withConfig(config)
        .withKubernetesSerialization(ApiObjects.serialization())
        .withHttpClientFactory(new CipherOrderedHttpClientFactory(
            config.getTlsVersions(), CipherSuitePreference.optimizingCompiler()));
    KubeApiRequestMetrics metrics = new KubeApiRequestMetrics(registry);
    KubeApiRateLimit limit = qps > 0 ? KubeApiRateLimit.perSecond(qps, registry) : null;
    return builder
        .withHttpClientBuilderConsumer(
            b -> {
              if (limit != null) {
                b.addOrReplaceInterceptor(KubeApiRateLimit.NAME, limit);
              }
              b.addOrReplaceInterceptor(KubeApiRequestMetrics.NAME, metrics);
              b.addOrReplaceInterceptor(AsciiWatchBodies.NAME, new AsciiWatchBodies());
              more.accept(b);
            })
        .build();
  }

  /**
   * How soon a dropped watch (or an informer's failed list) is retried. fabric8 doubles the wait
   * after each failed attempt up to 32 times this, 8 s (its default of 1 s grows to 32 s), and
   * starts again from it once a watch is open. Each attempt's request is itself retried for up to
   * about 19 s (fabric8's request retry: 100 ms doubling to 3.2 s, 10 times), so during an outage
   * the waits grow slowly; after a long one an informer is back within about 11 s of the API
   * server (8 s, plus 3.2 s until its request's next try).
   */
  static final int WATCH_RECONNECT_INTERVAL_MILLIS = 250;

  /**
   * {@code config} with the operator's settings; the tests' operator clients are configured here
   * too:
   *
   * <ul>
   *   <li>the watch reconnect backoff above;
   *   <li>watches as streamed HTTP responses rather than WebSockets. Each WebSocket is a connection
   *       of its own, so the controller's 50 or so informers opened 50 TLS connections at start
   *       (a handshake each, about 0.6 s of CPU and 0.3 s of the time to ready on 2 cores); as
   *       HTTP responses they share the client's HTTP/2 connection with every other request, as
   *       client-go's watches do. fabric8 splits such a stream into events correctly only when it
   *       is ASCII: a client that watches this way needs {@link AsciiWatchBodies} ({@link #create}
   *       installs it);
   *   <li>the API server's certificate trusted only when the cluster's CA signed it, as client-go
   *       trusts it ({@link ClusterCaTrust}).
   * </ul>
   */
  public static Config configure(Config config) {
    config.setWatchReconnectInterval(WATCH_RECONNECT_INTERVAL_MILLIS);
    config.setOnlyHttpWatches(true);
    return ClusterCaTrust.only(config);
  }

  /**
   * fabric8's JDK HTTP client, offering TLS cipher suites in this process's order
   * ({@link CipherSuitePreference}: ChaCha20-Poly1305 first when the JVM runs without C2), with the
   * TLS versions of the client's configuration as fabric8 sets them.
   */
  static final class CipherOrderedHttpClientFactory extends JdkHttpClientFactory {

    private final String[] protocols;
    private final boolean optimizingCompiler;

    CipherOrderedHttpClientFactory(TlsVersion[] tlsVersions, boolean optimizingCompiler) {
      this.optimizingCompiler = optimizingCompiler;
      this.protocols = tlsVersions == null
          ? null
          : Arrays.stream(tlsVersions).map(TlsVersion::javaName).toArray(String[]::new);
    }

    @Override
    protected void additionalConfig(java.net.http.HttpClient.Builder builder) {
      if (optimizingCompiler) {
        return;
      }
      try {
        SSLParameters parameters = CipherSuitePreference.parameters(defaultsOnly(), false);
        if (protocols != null && protocols.length > 0) {
          parameters.setProtocols(protocols);
        }
        builder.sslParameters(parameters);
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("no TLS context", e);
      }
    }

    /**
     * A context to read the JDK's default client parameters from, and nothing else: {@code
     * SSLContext.getDefault()} would read the JDK's trust store from disk, which this client does
     * not use (its context is fabric8's, with the cluster's CA). Given no key or trust manager,
     * the JDK puts in ones that refuse everything; it never connects.
     */
    static SSLContext defaultsOnly() throws GeneralSecurityException {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(new KeyManager[0], new TrustManager[0], null);
      return context;
    }
  }

  /**
   * Opens the client's connection to the API server ahead of the controllers: a {@code GET
   * /version} (which every identity may read), answered or failed in the background. fabric8's JDK
   * client speaks HTTP/2 and shares one connection among all requests, but only once one exists:
   * requests sent together before that each open their own. At start the controllers' informers
   * sent their first lists together and the process made eight TLS connections (eight handshakes,
   * seven of them closed again once the first was pooled). Sending this one first, and building
   * the controllers once it is answered ({@link #awaitConnection}), leaves one. The result says
   * nothing about the server's health; the informers report that.
   */
  public static CompletableFuture<Void> connect(KubernetesClient client) {
    HttpClient http = client.getHttpClient();
    HttpRequest version = http.newHttpRequestBuilder()
        .uri(URLUtils.join(client.getConfiguration().getMasterUrl(), "version"))
        .build();
    return http.sendAsync(version, String.class).handle((answer, error) -> null);
  }

  /** How long {@link #awaitConnection} waits for {@link #connect}'s answer. */
  static final Duration CONNECT_WAIT = Duration.ofSeconds(2);

  /**
   * Returns once {@code connection} ({@link #connect}) is answered or failed, or after {@link
   * #CONNECT_WAIT}: an API server that is away is the informers' to retry and report.
   */
  public static void awaitConnection(CompletableFuture<Void> connection) {
    try {
      connection.get(CONNECT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // the informers' own requests connect, retry and report
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("--kubeconfig: cannot read " + file, e);
    }
  }
}
