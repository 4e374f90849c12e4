package io.tidb.operator.pd;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/** A loopback HTTP server answering every request with one fixed status and body. */
final class FixedResponseServer implements AutoCloseable {

  private final HttpServer server;

  private FixedResponseServer(HttpServer server) {
    this.server = server;
  }

  static FixedResponseServer start(int status, String body) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    server.createContext("/", exchange -> {
      exchange.getRequestBody().readAllBytes();
      exchange.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
      exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      if (bytes.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      }
      exchange.close();
    });
    server.start();
    return new FixedResponseServer(server);
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
