package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.tidb.operator.api.validation.cluster.TidbClusterAdmissionRules;
import io.tidb.operator.certs.CertificateAuthority;
import io.tidb.operator.certs.CertificateIssuer;
import io.tidb.operator.certs.CertificateSecretData;
import io.tidb.operator.certs.KeyAlgorithm;
import io.tidb.operator.certs.Pem;
import io.tidb.operator.certs.RenewalPolicy;
import io.tidb.operator.certs.ServingCertificate;
import io.tidb.operator.certs.ServingNames;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.LoopbackPorts;
import io.tidb.operator.testsupport.TestNamespaces;
import io.tidb.operator.testsupport.WithKubeApiServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Secret mode with the Secret mounted into the pod, as the chart does: a restart serves the mounted
 * copy before it has asked the API server anything, then reads the Secret (and repairs the CA
 * bundle) on the watcher's thread; a copy the Secret no longer holds is replaced; a copy a pass
 * would renew is not served; at a first install the server listens, not ready, while the Secret's
 * first pass runs.
 */
@WithKubeApiServer
class SecretMountStartIT {

  private static final String SECRET = "tidb-webhook-tls";
  private static final RenewalPolicy POLICY = new RenewalPolicy(
      Duration.ofDays(30), Duration.ofDays(5), Duration.ofDays(7), Duration.ofDays(1), KeyAlgorithm.EC_P256);

  private static String namespace;
  private static String configurationName;
  private static ServingNames names;
  /** The serving certificate the first start stored in the Secret. */
  private static ServingCertificate stored;

  @TempDir Path mounted;

  @BeforeAll
  static void createTheSecretWithAFirstStart(KubernetesClient client, ClusterAccess cluster) {
    namespace = TestNamespaces.createUnique(client, "webhook-mount");
    configurationName = "tidb-webhook-mount-" + namespace;
    names = ServingNames.forService("tidb-webhook", namespace);
    // Never called: nothing matches the selector. Here only for their caBundle.
    client.resource(new ValidatingWebhookConfigurationBuilder()
        .withNewMetadata().withName(configurationName).endMetadata()
        .addNewWebhook().withName("validate.mount.pingcap.com")
        .withNewClientConfig().withUrl("https://127.0.0.1:1/validate").endClientConfig()
        .withNewNamespaceSelector().addToMatchLabels("tidb-operator-test/never", "true").endNamespaceSelector()
        .withSideEffects("None").withAdmissionReviewVersions("v1").endWebhook().build()).create();
    client.resource(new MutatingWebhookConfigurationBuilder()
        .withNewMetadata().withName(configurationName).endMetadata()
        .addNewWebhook().withName("default.mount.pingcap.com")
        .withNewClientConfig().withUrl("https://127.0.0.1:1/mutate").endClientConfig()
        .withNewNamespaceSelector().addToMatchLabels("tidb-operator-test/never", "true").endNamespaceSelector()
        .withSideEffects("None").withAdmissionReviewVersions("v1").endWebhook().build()).create();

    try (WebhookApplication first = start(null, cluster::newClient)) {
      stored = CertificateSecretData.decode(secret(client).getData()).serving();
      assertServes(first, stored.certificate());
    }
  }

  @AfterAll
  static void deleteConfigurations(KubernetesClient client) {
    client.admissionRegistration().v1().validatingWebhookConfigurations().withName(configurationName).delete();
    client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(configurationName).delete();
  }

  @Test
  void aRestartServesTheMountedCopyBeforeAskingTheApiServer(KubernetesClient client, ClusterAccess cluster)
      throws Exception {
    mount(stored);
    clearCaBundles(client);
    GatedClients clients = new GatedClients(cluster::newClient);

    try (WebhookApplication webhook = start(mounted, clients)) {
      // Up and serving the copy while the client the Secret is read with is still held back.
      assertServes(webhook, stored.certificate());
      assertEquals(0, clients.built.get(), "no client built before the server was up");

      clients.open.countDown();
      Await.until("the Secret's first pass to put the CA bundle back", Duration.ofSeconds(30),
          () -> caBundle(client), bundle -> !bundle.isEmpty());
      assertArrayEquals(CertificateSecretData.decode(secret(client).getData()).caBundlePem()
          .getBytes(StandardCharsets.UTF_8), caBundle(client).getBytes(StandardCharsets.UTF_8));
      assertServes(webhook, stored.certificate());
      assertEquals(1, clients.built.get());
    }
  }

  @Test
  void aCopyTheSecretNoLongerHoldsIsReplacedByTheSecretsCertificate(ClusterAccess cluster) throws Exception {
    CertificateIssuer issuer = new CertificateIssuer();
    Instant now = Instant.now();
    CertificateAuthority previous = issuer.newAuthority("previous", now, Duration.ofDays(30), KeyAlgorithm.EC_P256);
    ServingCertificate stale = issuer.issueServing(previous, names, now, Duration.ofDays(7), KeyAlgorithm.EC_P256);
    mount(stale);
    GatedClients clients = new GatedClients(cluster::newClient);

    try (WebhookApplication webhook = start(mounted, clients)) {
      assertServes(webhook, stale.certificate());

      clients.open.countDown();
      Await.until("the Secret's certificate to be swapped in", Duration.ofSeconds(30),
          () -> served(webhook), served -> served.equals(stored.certificate()));
    }
  }

  @Test
  void aCopyInsideItsRenewalWindowIsNotServed(ClusterAccess cluster) throws Exception {
    CertificateIssuer issuer = new CertificateIssuer();
    Instant now = Instant.now();
    CertificateAuthority ca = issuer.newAuthority("ca", now, Duration.ofDays(30), KeyAlgorithm.EC_P256);
    // Valid for 12 hours: inside the policy's one-day renewal window.
    mount(issuer.issueServing(ca, names, now, Duration.ofHours(12), KeyAlgorithm.EC_P256));
    GatedClients clients = new GatedClients(cluster::newClient);
    clients.open.countDown();

    try (WebhookApplication webhook = start(mounted, clients)) {
      assertEquals(1, clients.built.get(), "the Secret was read before the server came up");
      assertServes(webhook, stored.certificate());
    }
  }

  @Test
  void anEmptyMountAsOnTheFirstInstallReadsTheSecretFirst(ClusterAccess cluster) throws Exception {
    GatedClients clients = new GatedClients(cluster::newClient);
    clients.open.countDown();

    try (WebhookApplication webhook = start(mounted, clients)) {
      assertEquals(1, clients.built.get());
      assertServes(webhook, stored.certificate());
    }
  }

  /**
   * At a first install the Secret's pass and the server's start run together: the server listens,
   * not ready, with a placeholder nothing trusts, until the pass's certificate is in.
   */
  @Test
  void whileTheFirstPassRunsTheServerListensNotReadyWithAPlaceholder(ClusterAccess cluster) throws Exception {
    GatedClients clients = new GatedClients(cluster::newClient);
    int port = LoopbackPorts.free();
    CompletableFuture<WebhookApplication> starting =
        CompletableFuture.supplyAsync(() -> start(mounted, clients, port), runnable -> new Thread(runnable).start());
    try {
      X509Certificate placeholder = Await.until("the server to listen while the pass is held back",
          Duration.ofSeconds(30), () -> servedOn(port), Optional::isPresent).orElseThrow();
      assertTrue(placeholder.getIssuerX500Principal().getName().contains("placeholder"),
          "served by a placeholder CA: " + placeholder.getIssuerX500Principal());
      assertNotEquals(stored.certificate(), placeholder);
      assertEquals(503, readyzStatus(port));
      assertFalse(starting.isDone());
      assertEquals(0, clients.built.get());

      clients.open.countDown();
      try (WebhookApplication webhook = starting.get(60, TimeUnit.SECONDS)) {
        assertEquals(1, clients.built.get());
        assertServes(webhook, stored.certificate());
        assertEquals(200, readyzStatus(port));
      }
    } finally {
      if (clients.open.getCount() > 0) {
        // failed while the pass was held back: let the start finish and stop what it started
        clients.open.countDown();
        starting.thenAccept(WebhookApplication::close);
      }
    }
  }

  /** The certificate presented on {@code port}, empty while nothing listens there. */
  private static Optional<X509Certificate> servedOn(int port) {
    try (SSLSocket socket = acceptAnyServer(port)) {
      return Optional.of((X509Certificate) socket.getSession().getPeerCertificates()[0]);
    } catch (java.io.IOException notYet) {
      return Optional.empty();
    }
  }

  /** {@code GET /readyz}'s status on {@code port}. */
  private static int readyzStatus(int port) throws Exception {
    try (SSLSocket socket = acceptAnyServer(port)) {
      socket.getOutputStream().write(
          "GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      return Integer.parseInt(response.substring("HTTP/1.1 ".length(), "HTTP/1.1 ".length() + 3));
    }
  }

  /** A TLS connection to {@code port}, handshake done, whatever certificate is presented. */
  private static SSLSocket acceptAnyServer(int port) throws java.io.IOException {
    SSLContext context;
    try {
      context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {new AcceptAnyServer()}, null);
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
    SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket();
    try {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
      socket.setSoTimeout(5000);
      socket.startHandshake();
      return socket;
    } catch (java.io.IOException e) {
      socket.close();
      throw e;
    }
  }

  /** A client supplier that counts the clients it built and holds each back until opened. */
  private static final class GatedClients implements Supplier<KubernetesClient> {
    final CountDownLatch open = new CountDownLatch(1);
    final AtomicInteger built = new AtomicInteger();
    private final Supplier<KubernetesClient> clients;

    GatedClients(Supplier<KubernetesClient> clients) {
      this.clients = clients;
    }

    @Override
    public KubernetesClient get() {
      try {
        if (!open.await(60, TimeUnit.SECONDS)) {
          throw new IllegalStateException("never opened");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      built.incrementAndGet();
      return clients.get();
    }
  }

  private static WebhookApplication start(Path mountDir, Supplier<KubernetesClient> clients) {
    return start(mountDir, clients, 0);
  }

  private static WebhookApplication start(Path mountDir, Supplier<KubernetesClient> clients, int port) {
    WebhookApplication.SecretSettings secret = new WebhookApplication.SecretSettings(
        namespace, SECRET, names, List.of(configurationName), List.of(configurationName), POLICY,
        "tidb-webhook-ca", mountDir);
    return WebhookApplication.start(
        new WebhookApplication.Settings(
            new WebhookServer.Settings("127.0.0.1", port, 4 << 20, Duration.ZERO, Duration.ofSeconds(10)),
            CertificateMode.SECRET, null, secret, Duration.ofHours(1)),
        List.of(new TidbClusterAdmissionRules()),
        clients);
  }

  /** Writes {@code certificate} where the kubelet would put the Secret's serving pair. */
  private void mount(ServingCertificate certificate) throws Exception {
    Files.writeString(mounted.resolve(CertificateSecretData.TLS_CRT), Pem.encodeCertificate(certificate.certificate()));
    Files.writeString(mounted.resolve(CertificateSecretData.TLS_KEY), Pem.encodePrivateKey(certificate.privateKey()));
  }

  private static Secret secret(KubernetesClient client) {
    return client.secrets().inNamespace(namespace).withName(SECRET).get();
  }

  private static void clearCaBundles(KubernetesClient client) {
    client.admissionRegistration().v1().validatingWebhookConfigurations().withName(configurationName)
        .edit(c -> {
          c.getWebhooks().forEach(w -> w.getClientConfig().setCaBundle(null));
          return c;
        });
    assertEquals("", caBundle(client));
  }

  /** The validating configuration's CA bundle as PEM, empty when unset. */
  private static String caBundle(KubernetesClient client) {
    String bundle = client.admissionRegistration().v1().validatingWebhookConfigurations().withName(configurationName)
        .get().getWebhooks().get(0).getClientConfig().getCaBundle();
    return Optional.ofNullable(bundle)
        .map(b -> new String(Base64.getDecoder().decode(b), StandardCharsets.UTF_8)).orElse("");
  }

  private static void assertServes(WebhookApplication webhook, X509Certificate expected) {
    X509Certificate served = served(webhook);
    assertTrue(served.equals(expected),
        "serves " + served.getSerialNumber().toString(16) + ", expected " + expected.getSerialNumber().toString(16));
  }

  /** The certificate the webhook's TLS handshake presents. */
  private static X509Certificate served(WebhookApplication webhook) {
    try (SSLSocket socket = acceptAnyServer(webhook.port())) {
      return (X509Certificate) socket.getSession().getPeerCertificates()[0];
    } catch (Exception e) {
      throw new IllegalStateException("TLS handshake with the webhook failed", e);
    }
  }

  /** Only to see which certificate is presented; nothing is sent over these connections. */
  private static final class AcceptAnyServer implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
