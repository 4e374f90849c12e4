package io.tidb.operator.controller.http;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * The JDK's built-in HTTP server with its own pool of daemon worker threads. Binding and starting
 * are separate steps so an owner can be constructed around the bound server before its handlers
 * (often the owner's own methods) are registered. Closing stops the server and its threads.
 */
public final class JdkHttpServer implements AutoCloseable {

  /** The JDK server's switch for TCP_NODELAY on the connections it accepts. */
  static final String NO_DELAY_PROPERTY = "sun.net.httpserver.nodelay";

  /*
   * The JDK server reads this property once, when the first server of the process is made, and
   * leaves Nagle's algorithm on unless told otherwise: it writes an answer's headers and its
   * body separately, and the body then waits for the client's delayed ACK (about 40 ms on Linux)
   * on every request of a kept-alive connection. Go's net/http, which PD, TiDB and the API
   * server use, sets TCP_NODELAY on every connection; so do these servers (discovery, the
   * dashboard proxy, /metrics), unless the process was started with the property set.
   */
  static {
    if (System.getProperty(NO_DELAY_PROPERTY) == null) {
      System.setProperty(NO_DELAY_PROPERTY, "true");
    }
  }

  private final HttpServer server;
  private final ExecutorService executor;

  private JdkHttpServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /** Binds {@code address} (port 0 picks a free port); serves nothing until {@link #start}. */
  public static JdkHttpServer bind(InetSocketAddress address, String threadName, int threads)
      throws IOException {
    return withExecutor(HttpServer.create(address, 0), threadName, threads);
  }

  /**
   * As {@link #bind}, serving HTTPS with {@code tls} and requiring a client certificate that
   * {@code tls}'s trust manager accepts (mutual TLS): a client without one fails the handshake.
   */
  public static JdkHttpServer bindMutualTls(
      InetSocketAddress address, String threadName, int threads, SSLContext tls)
      throws IOException {
    HttpsServer server = HttpsServer.create(address, 0);
    server.setHttpsConfigurator(new HttpsConfigurator(tls) {
      @Override
      public void configure(HttpsParameters params) {
        SSLParameters ssl = tls.getDefaultSSLParameters();
        ssl.setNeedClientAuth(true);
        params.setSSLParameters(ssl);
      }
    });
    return withExecutor(server, threadName, threads);
  }

  private static JdkHttpServer withExecutor(HttpServer server, String threadName, int threads) {
    ExecutorService executor =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, threadName);
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(executor);
    return new JdkHttpServer(server, executor);
  }

  /** Registers one handler per path prefix and starts serving. */
  public void start(Map<String, HttpHandler> handlers) {
    handlers.forEach(server::createContext);
    server.start();
  }

  public InetSocketAddress address() {
    return server.getAddress();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
