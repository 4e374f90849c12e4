package io.tidb.operator.webhook;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.tidb.operator.certs.CertificateAuthority;
import io.tidb.operator.certs.CertificateIssuer;
import io.tidb.operator.certs.ClusterCaTrust;
import io.tidb.operator.certs.KeyAlgorithm;
import io.tidb.operator.certs.KeyStores;
import io.tidb.operator.certs.MountedCopyVerdict;
import io.tidb.operator.certs.Pem;
import io.tidb.operator.certs.RenewalPolicy;
import io.tidb.operator.certs.ServingCertificate;
import io.tidb.operator.certs.ServingNames;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code train-class-data}: one short run of the real start and request path, for the image build
 * to record a class-data sharing archive from ({@code hack/class-data-archive.sh}). It starts the
 * webhook as {@code --cert-dir} does (a throwaway certificate written as {@code tls.crt} and
 * {@code tls.key}, every served rule set, HTTPS on 127.0.0.1, the JVM metrics bound), then sends
 * one /validate and one /mutate of a sample cluster, reads /readyz and /metrics, and reads what
 * {@code secret} mode reads through fabric8's client. The webhook then starts from that archive.
 * Exits 0 only if every answer is what it should be.
 */
@Command(
    name = "train-class-data",
    description = "Runs the start and request path once, for a class-data sharing archive (image build).")
final class ClassDataTraining implements Callable<Integer> {

  static final String SAMPLE = "/class-data-training/create-review.json";

  /**
   * The options the chart passes, in both certificate modes: parsing {@code --name=value} loads
   * picocli classes that the subcommand's own parse does not, and a class missing from the archive
   * is looked for in every jar of the class path before picocli's.
   */
  static final List<List<String>> CHART_ARGUMENTS = List.of(
      List.of("--port=9443", "--log-level=info", "--cert-dir=/etc/tidb-operator/webhook-tls"),
      List.of("--port=9443", "--log-level=info", "--namespace=tidb-admin", "--service=tidb-operator-webhook",
          "--secret=tidb-operator-webhook-tls", "--validating-webhook-configuration=tidb-operator-webhook",
          "--secret-mount-dir=/etc/tidb-operator/webhook-tls",
          "--mutating-webhook-configuration=tidb-operator-webhook", "--cluster-domain=cluster.local",
          "--cert-validity-hours=8760", "--cert-renew-before-hours=720"));

  @Override
  public Integer call() throws Exception {
    for (List<String> arguments : CHART_ARGUMENTS) {
      new CommandLine(new WebhookMain()).parseArgs(arguments.toArray(String[]::new));
    }
    CertificateIssuer issuer = new CertificateIssuer();
    Instant now = Instant.now();
    CertificateAuthority ca = issuer.newAuthority("class-data-training", now, Duration.ofHours(1), KeyAlgorithm.EC_P256);
    ServingNames names = ServingNames.forService("tidb-operator-webhook", "training");
    ServingCertificate serving = issuer.issueServing(ca, names, now, Duration.ofHours(1), KeyAlgorithm.EC_P256);
    Path certDir = Files.createTempDirectory("webhook-training");
    try {
      Files.writeString(certDir.resolve("tls.crt"), Pem.encodeCertificate(serving.certificate()));
      Files.writeString(certDir.resolve("tls.key"), Pem.encodePrivateKey(serving.privateKey()));
      WebhookApplication.Settings settings = new WebhookApplication.Settings(
          new WebhookServer.Settings("127.0.0.1", 0, 4 << 20, Duration.ZERO, Duration.ofSeconds(5)),
          CertificateMode.FILES, certDir, null, Duration.ofMinutes(1));
      try (WebhookApplication app = WebhookApplication.start(settings, WebhookMain.servedRules(), () -> {
        throw new IllegalStateException("files mode needs no Kubernetes client");
      })) {
        int exit = exercise(app.port(), ca);
        // As secret mode judges the mounted copy of its Secret at start.
        MountedCopyVerdict.judge(serving, names, now, RenewalPolicy.DEFAULT);
        if (exit == 0) {
          readAsSecretModeDoes(app.port(), ca, certDir);
        }
        return exit;
      }
    } finally {
      for (String file : List.of("tls.crt", "tls.key", "ca.crt")) {
        Files.deleteIfExists(certDir.resolve(file));
      }
      Files.delete(certDir);
    }
  }

  /**
   * The chart's default certificate mode ({@code secret}) reads its Secret and the webhook
   * configurations through fabric8's client at every start: about 450 classes of the client, its
   * HTTP stack and the objects' model. The run has no API server, so the client reads them from
   * the training's own server (HTTPS, its CA trusted from a file, a token), which answers 404: the
   * same requests and the same answers' path as a first start, when neither exists.
   */
  private static void readAsSecretModeDoes(int port, CertificateAuthority ca, Path dir) throws Exception {
    Path caFile = Files.writeString(dir.resolve("ca.crt"), Pem.encodeCertificate(ca.certificate()));
    Config config = ClusterCaTrust.only(new ConfigBuilder(Config.empty())
        .withMasterUrl("https://127.0.0.1:" + port)
        .withCaCertFile(caFile.toString())
        .withOauthToken("class-data-training")
        .build());
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      client.secrets().inNamespace("training").withName("tidb-operator-webhook-tls").get();
      client.admissionRegistration().v1().validatingWebhookConfigurations().withName("tidb-operator-webhook").get();
      client.admissionRegistration().v1().mutatingWebhookConfigurations().withName("tidb-operator-webhook").get();
    }
  }

  private static int exercise(int port, CertificateAuthority ca) throws Exception {
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(KeyStores.trusting(List.of(ca.certificate())));
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, trust.getTrustManagers(), null);
    HttpClient client = HttpClient.newBuilder().sslContext(tls).version(HttpClient.Version.HTTP_1_1).build();
    byte[] review;
    try (InputStream in = ClassDataTraining.class.getResourceAsStream(SAMPLE)) {
      review = in.readAllBytes();
    }
    URI base = URI.create("https://127.0.0.1:" + port);
    for (AdmissionOperation operation : AdmissionOperation.values()) {
      HttpResponse<String> response = client.send(
          HttpRequest.newBuilder(base.resolve(operation.path()))
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofByteArray(review)).build(),
          HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      if (response.statusCode() != 200 || !response.body().contains("\"allowed\":true")) {
        System.err.println("train-class-data: " + operation.path() + " answered " + response.statusCode());
        return 1;
      }
    }
    for (String path : List.of("/readyz", "/metrics")) {
      HttpResponse<String> response = client.send(
          HttpRequest.newBuilder(base.resolve(path)).GET().build(),
          HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      if (response.statusCode() != 200) {
        System.err.println("train-class-data: " + path + " answered " + response.statusCode());
        return 1;
      }
    }
    return 0;
  }
}
