package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.certs.Pem;
import io.tidb.operator.certs.ServingCertificate;
import io.tidb.operator.testsupport.ChartJvmOptions;
import io.tidb.operator.testsupport.LoopbackPorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The webhook as its own JVM with the chart's options: it ends on SIGTERM, and it would end on
 * its first OutOfMemoryError rather than live on half-broken (a benchmark once saw a server out of
 * heap keep running and ignore SIGTERM, started without that option), and its start leaves out
 * work that no request needs.
 */
class WebhookProcessTest {

  @Test
  void theChartsOptionsEndTheProcessOnItsFirstOutOfMemoryError() throws IOException {
    assertTrue(ChartJvmOptions.ofProjectChart("webhook").jvmArgs().contains("-XX:+ExitOnOutOfMemoryError"),
        "webhook.jvmOptions of values.yaml");
  }

  @Test
  void sigtermEndsAServingProcess(@TempDir Path dir) throws Exception {
    Process server = startAndAwaitReady(dir, List.of());
    try {
      server.destroy();

      assertTrue(server.waitFor(30, TimeUnit.SECONDS), "still running 30 s after SIGTERM");
      assertEquals(143, server.exitValue(), "the JVM's status after SIGTERM once its shutdown hook ran");
    } finally {
      server.destroyForcibly();
    }
  }

  /** Jetty would build it only to ask whether references are compressed (WebhookMain says why not). */
  @Test
  void aReadyServerHasNotBuiltThePlatformMBeanServer(@TempDir Path dir) throws Exception {
    Path classes = dir.resolve("classes.log");
    Process server = startAndAwaitReady(dir, List.of("-Xlog:class+load=info:file=" + classes));
    try {
      String loaded = Files.readString(classes);
      assertTrue(loaded.contains(" org.eclipse.jetty.util.MemoryUtils "), "Jetty's MemoryUtils ran: " + classes);
      assertFalse(loaded.contains(" com.sun.jmx.mbeanserver.JmxMBeanServer "),
          "the platform MBean server was built before /readyz answered 200");
    } finally {
      server.destroyForcibly();
    }
  }

  private static Process startAndAwaitReady(Path dir, List<String> extraJvmArgs) throws Exception {
    TestPki pki = new TestPki();
    ServingCertificate serving = pki.serving();
    Files.writeString(dir.resolve("tls.crt"), Pem.encodeCertificate(serving.certificate()));
    Files.writeString(dir.resolve("tls.key"), Pem.encodePrivateKey(serving.privateKey()));
    int port = LoopbackPorts.free();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(ChartJvmOptions.ofProjectChart("webhook").jvmArgs());
    command.addAll(extraJvmArgs);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), WebhookMain.class.getName(),
        "--cert-dir=" + dir, "--bind-address=127.0.0.1", "--port=" + port, "--shutdown-delay-seconds=0"));
    Process server = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(dir.resolve("server.log").toFile()).start();
    try {
      HttpClient client = HttpClient.newBuilder()
          .sslContext(TestPki.trusting(List.of(pki.ca.certificate())))
          .connectTimeout(Duration.ofSeconds(2))
          .build();
      awaitReady(client, URI.create("https://127.0.0.1:" + port + "/readyz"), server, dir);
      return server;
    } catch (Exception | Error e) {
      server.destroyForcibly();
      throw e;
    }
  }

  private static void awaitReady(HttpClient client, URI readyz, Process server, Path dir) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(readyz).timeout(Duration.ofSeconds(2)).GET().build();
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (System.nanoTime() < deadline) {
      assertTrue(server.isAlive(), () -> "exited before it was ready: " + log(dir));
      try {
        if (client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      Thread.sleep(50);
    }
    throw new AssertionError("not ready within 90 s: " + log(dir));
  }

  private static String log(Path dir) {
    try {
      return Files.readString(dir.resolve("server.log"));
    } catch (IOException e) {
      return e.toString();
    }
  }
}
