package io.tidb.operator.testsupport;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubeapitest.cert.CertManager;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Reader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * A tiny HTTPS admission webhook on 127.0.0.1 for tests: a self-signed certificate with IP SAN
 * 127.0.0.1 (made by kube-api-test's {@link CertManager}), a decision function, and a record of every
 * AdmissionReview request it received.
 */
final class RecordingAdmissionWebhook implements AutoCloseable {

  static final String PATH = "/validate";
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private final HttpsServer server;
  private final String certificatePem;
  private final List<AdmissionRequest> requests = new CopyOnWriteArrayList<>();

  /**
   * @param decide for each request: {@code null} to allow it, or the message to deny it with
   */
  RecordingAdmissionWebhook(Path workDir, Function<AdmissionRequest, String> decide) throws Exception {
    Path key = workDir.resolve("webhook.key");
    Path cert = workDir.resolve("webhook.crt");
    CertManager.generateKeyAndCertificate("CN=tidb-operator-test-webhook", key.toFile(), cert.toFile(),
        new GeneralName(GeneralName.iPAddress, "127.0.0.1"));
    this.certificatePem = Files.readString(cert);
    server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(sslContext(key, cert)));
    server.createContext(PATH, exchange -> respond(exchange, decide));
    server.start();
  }

  /** {@code https://127.0.0.1:<port>/validate}. */
  String url() {
    return "https://127.0.0.1:" + server.getAddress().getPort() + PATH;
  }

  /** The PEM of the self-signed serving certificate: the webhook's {@code caBundle}. */
  String certificatePem() {
    return certificatePem;
  }

  List<AdmissionRequest> requests() {
    return List.copyOf(requests);
  }

  private void respond(HttpExchange exchange, Function<AdmissionRequest, String> decide) throws IOException {
    AdmissionReview review = SERIALIZATION.unmarshal(exchange.getRequestBody(), AdmissionReview.class);
    AdmissionRequest request = review.getRequest();
    requests.add(request);
    String denial = decide.apply(request);
    AdmissionReview answer = new AdmissionReviewBuilder()
        .withApiVersion("admission.k8s.io/v1").withKind("AdmissionReview")
        .withNewResponse()
        .withUid(request.getUid())
        .withAllowed(denial == null)
        .withStatus(new StatusBuilder().withMessage(denial).build())
        .endResponse()
        .build();
    byte[] body = SERIALIZATION.asJson(answer).getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().put("Content-Type", List.of("application/json"));
    exchange.sendResponseHeaders(200, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  private static SSLContext sslContext(Path keyFile, Path certFile) throws Exception {
    X509Certificate certificate = new JcaX509CertificateConverter()
        .getCertificate((X509CertificateHolder) readPem(certFile));
    Object keyObject = readPem(keyFile);
    JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
    PrivateKey key = keyObject instanceof PEMKeyPair pair
        ? converter.getKeyPair(pair).getPrivate()
        : converter.getPrivateKey((PrivateKeyInfo) keyObject);
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    char[] password = "test-only".toCharArray();
    store.setKeyEntry("webhook", key, password, new X509Certificate[] {certificate});
    KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keyManagers.init(store, password);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keyManagers.getKeyManagers(), null, null);
    return context;
  }

  private static Object readPem(Path file) throws IOException {
    try (Reader reader = Files.newBufferedReader(file); PEMParser parser = new PEMParser(reader)) {
      return parser.readObject();
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }

  /** Labels of the object under review (empty if none). */
  static Map<String, String> labels(AdmissionRequest request) {
    Object object = request.getObject();
    Map<String, Object> map = SERIALIZATION.convertValue(object, Map.class);
    Object metadata = map.get("metadata");
    if (metadata instanceof Map<?, ?> meta && meta.get("labels") instanceof Map<?, ?> labels) {
      @SuppressWarnings("unchecked")
      Map<String, String> result = (Map<String, String>) labels;
      return result;
    }
    return Map.of();
  }
}
