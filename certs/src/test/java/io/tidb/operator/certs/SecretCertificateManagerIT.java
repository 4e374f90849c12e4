package io.tidb.operator.certs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.tidb.operator.testsupport.TestNamespaces;
import io.tidb.operator.testsupport.WithKubeApiServer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Secret bootstrap and caBundle injection against a real kube-apiserver. */
@WithKubeApiServer
class SecretCertificateManagerIT {

  private static final String SECRET = "webhook-tls";
  private static final Instant T0 = Instant.now();
  private static final RenewalPolicy POLICY =
      new RenewalPolicy(
          Duration.ofDays(100), Duration.ofDays(20), Duration.ofDays(30), Duration.ofDays(5),
          KeyAlgorithm.EC_P256);

  private final KubernetesClient client;
  private String namespace;
  private String configName;
  private ServingNames names;

  SecretCertificateManagerIT(KubernetesClient client) {
    this.client = client;
  }

  @BeforeEach
  void setUp() {
    namespace = TestNamespaces.createUnique(client, "certs");
    configName = "certs-it-" + namespace;
    names = ServingNames.forService("tidb-webhook", namespace);
    client.resource(validatingConfiguration(configName)).create();
    client.resource(mutatingConfiguration(configName)).create();
  }

  @AfterEach
  void tearDown() {
    client.admissionRegistration().v1().validatingWebhookConfigurations().withName(configName).delete();
    client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(configName).delete();
  }

  @Test
  void firstPassCreatesTheSecretAndInjectsTheBundleIntoEveryWebhook() {
    WebhookCertificates certs = manager(T0).reconcile();

    Secret secret = readSecret();
    assertEquals("kubernetes.io/tls", secret.getType());
    assertEquals(List.of("ca.crt", "ca.key", "tls.crt", "tls.key"), secret.getData().keySet().stream().sorted().toList());
    assertTrue(CertificateSecretData.decode(secret.getData()).serving().sameAs(certs.serving()));
    assertEquals(List.of(b64(certs.caBundlePem())), caBundles(), "every webhook entry carries the bundle");
    assertTrue(
        CertificateIssuer.isSignedBy(certs.serving().certificate(), certs.ca().certificate().getPublicKey()));
  }

  @Test
  void aSecondPassChangesNothing() {
    WebhookCertificates first = manager(T0).reconcile();
    String resourceVersion = readSecret().getMetadata().getResourceVersion();
    String vwcVersion = validating().getMetadata().getResourceVersion();

    WebhookCertificates second = manager(T0.plus(Duration.ofDays(1))).reconcile();

    assertTrue(second.serving().sameAs(first.serving()));
    assertEquals(resourceVersion, readSecret().getMetadata().getResourceVersion());
    assertEquals(vwcVersion, validating().getMetadata().getResourceVersion());
  }

  @Test
  void aReplicaThatReadBeforeTheWinnerWroteAdoptsTheWinnersCertificate() {
    WebhookCertificates winner = manager(T0).reconcile();
    String resourceVersion = readSecret().getMetadata().getResourceVersion();

    // This replica's read happened before the winner created the Secret: it sees nothing, creates,
    // gets 409 Conflict, and must re-read and use the winner's certificate.
    WebhookCertificates loser = manager(T0, new StaleFirstRead(client, namespace, SECRET)).reconcile();

    assertTrue(loser.serving().sameAs(winner.serving()));
    assertEquals(resourceVersion, readSecret().getMetadata().getResourceVersion());
    assertEquals(b64(winner.caBundlePem()), caBundles().get(0));
  }

  @Test
  void concurrentReplicasEndWithOneCertificate() throws Exception {
    int replicas = 4;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(replicas);
    try {
      List<Future<WebhookCertificates>> results = new ArrayList<>();
      for (int i = 0; i < replicas; i++) {
        SecretCertificateManager manager = manager(T0);
        Callable<WebhookCertificates> pass = () -> {
          start.await();
          return manager.reconcile();
        };
        results.add(pool.submit(pass));
      }
      start.countDown();
      List<WebhookCertificates> outcomes = new ArrayList<>();
      for (Future<WebhookCertificates> result : results) {
        outcomes.add(result.get());
      }
      WebhookCertificates stored = CertificateSecretData.decode(readSecret().getData());
      for (WebhookCertificates outcome : outcomes) {
        assertTrue(outcome.serving().sameAs(stored.serving()), "every replica serves the stored certificate");
      }
      assertEquals(List.of(b64(stored.caBundlePem())), caBundles());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void theServingCertificateIsRenewedInItsWindowUnderTheSameCa() {
    WebhookCertificates first = manager(T0).reconcile();

    WebhookCertificates renewed = manager(T0.plus(Duration.ofDays(26))).reconcile();

    assertNotEquals(first.serving().certificate().getSerialNumber(), renewed.serving().certificate().getSerialNumber());
    assertEquals(first.ca().certificate(), renewed.ca().certificate());
    assertTrue(CertificateSecretData.decode(readSecret().getData()).serving().sameAs(renewed.serving()));
    assertEquals(b64(first.caBundlePem()), caBundles().get(0), "bundle unchanged by a leaf renewal");
  }

  @Test
  void aCaRotationKeepsTheOldCaInTheSecretAndTheWebhookBundles() throws Exception {
    WebhookCertificates first = manager(T0).reconcile();

    WebhookCertificates rotated = manager(T0.plus(Duration.ofDays(81))).reconcile();

    assertNotEquals(first.ca().certificate(), rotated.ca().certificate());
    List<java.security.cert.X509Certificate> bundle = Pem.decodeCertificates(
        new String(Base64.getDecoder().decode(mutating().getWebhooks().get(0).getClientConfig().getCaBundle()),
            StandardCharsets.UTF_8));
    assertEquals(2, bundle.size());
    assertArrayEquals(rotated.ca().certificate().getEncoded(), bundle.get(0).getEncoded());
    assertArrayEquals(first.ca().certificate().getEncoded(), bundle.get(1).getEncoded());
    WebhookCertificates stored = CertificateSecretData.decode(readSecret().getData());
    assertEquals(1, stored.previousCas().size());
  }

  @Test
  void aBundleResetByAHelmUpgradeIsPutBack() {
    WebhookCertificates certs = manager(T0).reconcile();
    client.admissionRegistration().v1().validatingWebhookConfigurations().withName(configName)
        .patch(PatchContext.of(PatchType.JSON),
            "[{\"op\":\"replace\",\"path\":\"/webhooks/1/clientConfig/caBundle\",\"value\":\"Cg==\"}]");

    manager(T0).reconcile();

    assertEquals(b64(certs.caBundlePem()), validating().getWebhooks().get(1).getClientConfig().getCaBundle());
  }

  @Test
  void anUnreadableSecretIsReplaced() {
    client.secrets().inNamespace(namespace).resource(new io.fabric8.kubernetes.api.model.SecretBuilder()
        .withNewMetadata().withName(SECRET).endMetadata()
        .withType("kubernetes.io/tls")
        .withData(Map.of("tls.crt", b64("junk"), "tls.key", b64("junk")))
        .build()).create();

    WebhookCertificates certs = manager(T0).reconcile();

    assertTrue(CertificateSecretData.decode(readSecret().getData()).serving().sameAs(certs.serving()));
  }

  @Test
  void aMissingWebhookConfigurationIsSkippedNotFatal() {
    CaBundleInjector injector = new CaBundleInjector(client, List.of("does-not-exist-" + namespace), List.of(configName));
    SecretCertificateManager manager = new SecretCertificateManager(
        new CertificateSecretStore(client, namespace, SECRET), injector,
        new CertificateRenewer(new CertificateIssuer(), "ca"), names, POLICY, Clock.fixed(T0, ZoneOffset.UTC));

    WebhookCertificates certs = manager.reconcile();

    assertEquals(b64(certs.caBundlePem()), mutating().getWebhooks().get(0).getClientConfig().getCaBundle());
  }

  private SecretCertificateManager manager(Instant now) {
    return manager(now, new CertificateSecretStore(client, namespace, SECRET));
  }

  private SecretCertificateManager manager(Instant now, CertificateSecretStore store) {
    return new SecretCertificateManager(
        store,
        new CaBundleInjector(client, List.of(configName), List.of(configName)),
        new CertificateRenewer(new CertificateIssuer(), "tidb-webhook-ca"),
        names,
        POLICY,
        Clock.fixed(now, ZoneOffset.UTC));
  }

  private Secret readSecret() {
    return client.secrets().inNamespace(namespace).withName(SECRET).get();
  }

  private ValidatingWebhookConfiguration validating() {
    return client.admissionRegistration().v1().validatingWebhookConfigurations().withName(configName).get();
  }

  private MutatingWebhookConfiguration mutating() {
    return client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(configName).get();
  }

  /** The distinct caBundle values over every webhook entry (validating and mutating). */
  private List<String> caBundles() {
    return Stream.concat(
            validating().getWebhooks().stream().map(w -> w.getClientConfig().getCaBundle()),
            mutating().getWebhooks().stream().map(w -> w.getClientConfig().getCaBundle()))
        .distinct()
        .toList();
  }

  private static String b64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static ValidatingWebhookConfiguration validatingConfiguration(String name) {
    return new ValidatingWebhookConfigurationBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withWebhooks(validatingWebhook("a.certs-it.example.com"), validatingWebhook("b.certs-it.example.com"))
        .build();
  }

  private static ValidatingWebhook validatingWebhook(String name) {
    // Rules for a group nothing uses: the API server never calls this unreachable URL.
    return new ValidatingWebhookBuilder()
        .withName(name)
        .withAdmissionReviewVersions("v1")
        .withSideEffects("None")
        .withFailurePolicy("Ignore")
        .withNewClientConfig().withUrl("https://127.0.0.1:1/validate").endClientConfig()
        .addNewRule().withApiGroups("certs-it.example.com").withApiVersions("v1")
        .withResources("nothings").withOperations("CREATE").endRule()
        .build();
  }

  private static MutatingWebhookConfiguration mutatingConfiguration(String name) {
    MutatingWebhook webhook = new MutatingWebhookBuilder()
        .withName("m.certs-it.example.com")
        .withAdmissionReviewVersions("v1")
        .withSideEffects("None")
        .withFailurePolicy("Ignore")
        .withNewClientConfig().withUrl("https://127.0.0.1:1/mutate").endClientConfig()
        .addNewRule().withApiGroups("certs-it.example.com").withApiVersions("v1")
        .withResources("nothings").withOperations("CREATE").endRule()
        .build();
    return new MutatingWebhookConfigurationBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withWebhooks(webhook)
        .build();
  }

  /** A store whose first read sees no Secret, as a replica that read before another one wrote. */
  private static final class StaleFirstRead extends CertificateSecretStore {
    private final AtomicBoolean first = new AtomicBoolean(true);

    StaleFirstRead(KubernetesClient client, String namespace, String name) {
      super(client, namespace, name);
    }

    @Override
    public Optional<Secret> read() {
      return first.getAndSet(false) ? Optional.empty() : super.read();
    }
  }
}
