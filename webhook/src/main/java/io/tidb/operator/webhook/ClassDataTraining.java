package io.tidb.operator.webhook;

import io.tidb.operator.api.validation.cluster.TidbClusterAdmissionRules;
import io.tidb.operator.certs.CertificateAuthority;
import io.tidb.operator.certs.CertificateIssuer;
import io.tidb.operator.certs.KeyAlgorithm;
import io.tidb.operator.certs.KeyStores;
import io.tidb.operator.certs.ServingCertificate;
import io.tidb.operator.certs.ServingNames;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import picocli.CommandLine.Command;

/**
 * {@code train-class-data}: one short run of the real start and request path (a throwaway
 * certificate, the HTTPS server on 127.0.0.1, one /validate and one /mutate of a sample cluster),
 * for the image build to record with {@code -XX:ArchiveClassesAtExit}. The webhook then starts
 * from that class-data sharing archive. Exits 0 only if both answers are what they should be.
 */
@Command(
    name = "train-class-data",
    description = "Runs the start and request path once, for a class-data sharing archive (image build).")
final class ClassDataTraining implements Callable<Integer> {

  static final String SAMPLE = "/class-data-training/create-review.json";

  @Override
  public Integer call() throws Exception {
    CertificateIssuer issuer = new CertificateIssuer();
    Instant now = Instant.now();
    CertificateAuthority ca = issuer.newAuthority("class-data-training", now, Duration.ofHours(1), KeyAlgorithm.EC_P256);
    ServingCertificate serving = issuer.issueServing(
        ca, ServingNames.forService("tidb-operator-webhook", "training"), now, Duration.ofHours(1), KeyAlgorithm.EC_P256);
    AdmissionReviewCodec codec = new AdmissionReviewCodec();
    AdmissionRulesRegistry registry = new AdmissionRulesRegistry().register(new TidbClusterAdmissionRules());
    WebhookServer server = new WebhookServer(
        new WebhookServer.Settings("127.0.0.1", 0, 4 << 20, Duration.ZERO, Duration.ofSeconds(5)),
        new AdmissionService(registry, codec), codec, new WebhookMetrics(), new ServingTls(serving)).start();
    try {
      TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(KeyStores.trusting(List.of(ca.certificate())));
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(null, trust.getTrustManagers(), null);
      HttpClient client = HttpClient.newBuilder().sslContext(tls).version(HttpClient.Version.HTTP_1_1).build();
      byte[] review;
      try (InputStream in = ClassDataTraining.class.getResourceAsStream(SAMPLE)) {
        review = in.readAllBytes();
      }
      for (AdmissionOperation operation : AdmissionOperation.values()) {
        HttpResponse<String> response = client.send(
            HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + operation.path()))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(review)).build(),
            HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        if (response.statusCode() != 200 || !response.body().contains("\"allowed\":true")) {
          System.err.println("train-class-data: " + operation.path() + " answered " + response.statusCode());
          return 1;
        }
      }
      return 0;
    } finally {
      server.stop();
    }
  }
}
