package io.tidb.operator.pd.bench;

import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Executors;

/**
 * What one small GET costs the calling process with the JDK's {@code HttpClient} (as the PD
 * clients use it), the same client with a same-thread executor, and {@code HttpURLConnection}:
 * the answer is 1.5 KB, like PD's {@code /health}. A program, not a test. Start the server in one
 * process and measure from another, so only the client's CPU is counted:
 *
 * <pre>
 * java -cp target/test-classes -Dsun.net.httpserver.nodelay=true io.tidb.operator.pd.bench.HttpClientCostBenchmark server 18555 &amp;
 * java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp target/test-classes io.tidb.operator.pd.bench.HttpClientCostBenchmark default 18555 2000
 * </pre>
 *
 * Modes: {@code default}, {@code direct} (executor {@code Runnable::run}), {@code urlconn}. One
 * request every 2 ms, four rounds; CPU is the process's, wall excludes the 2 ms pause.
 */
public final class HttpClientCostBenchmark {

  private HttpClientCostBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      throw new IllegalArgumentException("usage: server PORT | default|direct|urlconn PORT REQUESTS");
    }
    int port = Integer.parseInt(args[1]);
    if (args[0].equals("server")) {
      serve(port);
      return;
    }
    String mode = args[0];
    int requests = Integer.parseInt(args[2]);
    URI uri = URI.create("http://127.0.0.1:" + port + "/pd/api/v1/health");
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
    if (mode.equals("direct")) {
      builder.executor(Runnable::run);
    }
    HttpClient client = builder.build();
    for (int round = 0; round < 4; round++) {
      long cpu = os.getProcessCpuTime();
      long wall = System.nanoTime();
      for (int i = 0; i < requests; i++) {
        if (mode.equals("urlconn")) {
          HttpURLConnection connection = (HttpURLConnection) uri.toURL().openConnection();
          connection.setConnectTimeout(5000);
          connection.setReadTimeout(5000);
          try (InputStream in = connection.getInputStream()) {
            in.readAllBytes();
          }
        } else {
          HttpResponse<String> response = client.send(
              HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).GET().build(),
              HttpResponse.BodyHandlers.ofString());
          if (response.statusCode() != 200) {
            throw new IllegalStateException("status " + response.statusCode());
          }
        }
        Thread.sleep(2);
      }
      System.out.printf(Locale.ROOT, "%s, round %d: %.0f us CPU per request, %.0f us wall%n", mode,
          round, (os.getProcessCpuTime() - cpu) / 1e3 / requests,
          (System.nanoTime() - wall) / 1e3 / requests - 2000);
    }
  }

  private static void serve(int port) throws Exception {
    byte[] body = new byte[1500];
    Arrays.fill(body, (byte) 'x');
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 100);
    server.createContext("/", exchange -> {
      exchange.getRequestBody().readAllBytes();
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.setExecutor(Executors.newFixedThreadPool(2));
    server.start();
  }
}
