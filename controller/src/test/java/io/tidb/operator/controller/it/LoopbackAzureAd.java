package io.tidb.operator.controller.it;

import com.azure.core.http.netty.NettyAsyncHttpClientBuilder;
import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.netty.handler.ssl.SslContextBuilder;
import io.tidb.operator.certs.CertificateAuthority;
import io.tidb.operator.certs.CertificateIssuer;
import io.tidb.operator.certs.KeyAlgorithm;
import io.tidb.operator.certs.KeyStores;
import io.tidb.operator.certs.Pem;
import io.tidb.operator.certs.ServingCertificate;
import io.tidb.operator.certs.ServingNames;
import io.tidb.operator.testsupport.KubernetesBinaries;
import io.tidb.operator.testsupport.LoopbackPorts;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * Azure AD against an emulator, all on 127.0.0.1 over HTTPS (a CA made for the test): Azurite
 * with {@code --oauth basic} (it accepts a bearer token with Azure Storage's audience and an Azure
 * AD issuer, and refuses requests without one), and a stand-in for Azure AD's token endpoint
 * ({@code AZURE_AUTHORITY_HOST}) that issues such a token by the client-credentials grant only for
 * the one tenant, client id and client secret it was made with, and records every request. What
 * it does not do that Azure AD does: sign the token (Azurite's basic level reads the claims only).
 */
final class LoopbackAzureAd implements AutoCloseable {

  static final String TENANT = "0f0e0d0c-0000-4000-8000-000000000001";
  static final String CLIENT_ID = "0a0b0c0d-0000-4000-8000-000000000002";
  final String clientSecret = "it-client-secret-" + Long.toHexString(System.nanoTime());

  /** {@code https://127.0.0.1:<port>}: what {@code AZURE_AUTHORITY_HOST} is set to. */
  final String authorityHost;
  /** {@code https://127.0.0.1:<port>/devstoreaccount1}. */
  final String blobEndpoint;
  /** A PKCS12 trust store with the test's CA, for the clean-up's JVM. */
  final Path trustStore;
  /** Every request to the token stand-in: method, path, and for a token request the client id. */
  final List<String> requests = new CopyOnWriteArrayList<>();

  private final Path dir;
  private final Process azurite;
  private final HttpsServer server;
  private final CertificateAuthority ca;

  LoopbackAzureAd() throws Exception {
    dir = Files.createTempDirectory("azure-ad-");
    CertificateIssuer issuer = new CertificateIssuer();
    Instant now = Instant.now();
    ca = issuer.newAuthority("azure-ad-it-ca", now, Duration.ofDays(1), KeyAlgorithm.RSA_2048);
    ServingCertificate serving = issuer.issueServing(ca, new ServingNames(List.of("localhost"), List.of("127.0.0.1")),
        now, Duration.ofDays(1), KeyAlgorithm.RSA_2048);
    Path cert = Files.writeString(dir.resolve("tls.crt"), Pem.encodeCertificate(serving.certificate()));
    Path key = Files.writeString(dir.resolve("tls.key"), Pem.encodePrivateKey(serving.privateKey()));
    trustStore = dir.resolve("trust.p12");
    try (OutputStream out = Files.newOutputStream(trustStore)) {
      KeyStores.trusting(List.of(ca.certificate())).store(out, "changeit".toCharArray());
    }

    char[] pw = "changeit".toCharArray();
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(KeyStores.serving(serving, pw), pw);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(kmf.getKeyManagers(), null, null);
    server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(tls));
    server.createContext("/", this::handle);
    server.start();
    authorityHost = "https://127.0.0.1:" + server.getAddress().getPort();

    KubernetesBinaries bins = KubernetesBinaries.fromEnvironment().requirePresent("azurite-blob");
    int port = LoopbackPorts.free();
    azurite = new ProcessBuilder(bins.binary("azurite-blob").toString(), "--blobHost", "127.0.0.1",
        "--blobPort", Integer.toString(port), "--inMemoryPersistence", "--skipApiVersionCheck", "--loose",
        "--oauth", "basic", "--cert", cert.toString(), "--key", key.toString(), "--silent")
        .redirectErrorStream(true).redirectOutput(dir.resolve("azurite.log").toFile()).start();
    awaitPort(port);
    blobEndpoint = "https://127.0.0.1:" + port + "/" + LoopbackCloudStorage.AZURE_ACCOUNT;
  }

  private void handle(HttpExchange ex) throws IOException {
    String path = ex.getRequestURI().getPath();
    String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    Map<String, String> form = new HashMap<>();
    for (String pair : body.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        form.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    requests.add(ex.getRequestMethod() + " " + path + (form.containsKey("client_id") ? " client_id=" + form.get("client_id")
        + " secret " + (clientSecret.equals(form.get("client_secret")) ? "right" : "wrong") : ""));
    String host = authorityHost.substring("https://".length());
    if (path.equals("/common/discovery/instance")) {
      reply(ex, 200, """
          {"tenant_discovery_endpoint":"%s/%s/v2.0/.well-known/openid-configuration","api-version":"1.1",
           "metadata":[{"preferred_network":"%s","preferred_cache":"%s","aliases":["%s"]}]}"""
          .formatted(authorityHost, TENANT, host, host, host));
    } else if (path.equals("/" + TENANT + "/v2.0/.well-known/openid-configuration")) {
      reply(ex, 200, """
          {"token_endpoint":"%1$s/%2$s/oauth2/v2.0/token","authorization_endpoint":"%1$s/%2$s/oauth2/v2.0/authorize",
           "issuer":"%1$s/%2$s/v2.0","device_authorization_endpoint":"%1$s/%2$s/oauth2/v2.0/devicecode"}"""
          .formatted(authorityHost, TENANT));
    } else if (path.equals("/" + TENANT + "/oauth2/v2.0/token") && "POST".equals(ex.getRequestMethod())) {
      boolean ok = "client_credentials".equals(form.get("grant_type")) && CLIENT_ID.equals(form.get("client_id"))
          && clientSecret.equals(form.get("client_secret"))
          && form.getOrDefault("scope", "").contains("https://storage.azure.com/.default");
      if (ok) {
        reply(ex, 200, "{\"token_type\":\"Bearer\",\"expires_in\":3599,\"ext_expires_in\":3599,\"access_token\":\""
            + token() + "\"}");
      } else {
        reply(ex, 401, "{\"error\":\"invalid_client\",\"error_description\":\"AADSTS7000215: Invalid client secret"
            + " provided.\",\"error_codes\":[7000215]}");
      }
    } else {
      reply(ex, 404, "{\"error\":\"not_found\"}");
    }
  }

  /** An Azure AD access token's claims for Azure Storage, unsigned (Azurite's basic level reads claims only). */
  private static String token() {
    long now = Instant.now().getEpochSecond();
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    String header = b64.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
    String claims = b64.encodeToString(("{\"aud\":\"https://storage.azure.com\",\"iss\":\"https://sts.windows.net/"
        + TENANT + "/\",\"iat\":" + (now - 60) + ",\"nbf\":" + (now - 60) + ",\"exp\":" + (now + 3600)
        + ",\"tid\":\"" + TENANT + "\",\"appid\":\"" + CLIENT_ID + "\"}").getBytes(StandardCharsets.UTF_8));
    return header + "." + claims + ".";
  }

  private static void reply(HttpExchange ex, int status, String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().add("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  private void awaitPort(int port) throws InterruptedException, IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 500);
        return;
      } catch (IOException e) {
        Thread.sleep(100);
      }
    }
    throw new IllegalStateException("azurite (HTTPS, OAuth) did not listen in 60 s: "
        + Files.readString(dir.resolve("azurite.log")));
  }

  /** The JVM flags that make the clean-up trust the test's CA. */
  List<String> trustFlags() {
    return List.of("-Djavax.net.ssl.trustStore=" + trustStore, "-Djavax.net.ssl.trustStorePassword=changeit",
        "-Djavax.net.ssl.trustStoreType=PKCS12");
  }

  /** The test's own client: the shared key over HTTPS, trusting the test's CA. */
  BlobContainerClient container(String name) throws Exception {
    var ssl = SslContextBuilder.forClient().trustManager(ca.certificate()).build();
    return new BlobServiceClientBuilder().endpoint(blobEndpoint)
        .credential(new StorageSharedKeyCredential(LoopbackCloudStorage.AZURE_ACCOUNT, LoopbackCloudStorage.AZURE_KEY))
        .httpClient(new NettyAsyncHttpClientBuilder(reactor.netty.http.client.HttpClient.create()
            .secure(spec -> spec.sslContext(ssl))).build())
        .buildClient().getBlobContainerClient(name);
  }

  void put(String name, List<String> keys) throws Exception {
    BlobContainerClient c = container(name);
    c.createIfNotExists();
    for (String k : keys) {
      c.getBlobClient(k).upload(BinaryData.fromString("data of " + k), true);
    }
  }

  TreeSet<String> keys(String name) throws Exception {
    TreeSet<String> out = new TreeSet<>();
    for (BlobItem b : container(name).listBlobs()) {
      out.add(b.getName());
    }
    return out;
  }

  @Override
  public void close() throws Exception {
    server.stop(0);
    azurite.destroy();
    if (!azurite.waitFor(10, TimeUnit.SECONDS)) {
      azurite.destroyForcibly();
    }
  }
}
