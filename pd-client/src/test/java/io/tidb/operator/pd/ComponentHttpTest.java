package io.tidb.operator.pd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ComponentHttpTest {

  private HttpServer server;
  private final List<String> seen = new CopyOnWriteArrayList<>();
  private final List<Integer> clientPorts = new CopyOnWriteArrayList<>();
  private final ComponentHttp http = ComponentHttp.plain(Duration.ofSeconds(2));

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
          + exchange.getRequestHeaders().getFirst("Content-Type") + " " + body);
      clientPorts.add(exchange.getRemoteAddress().getPort());
      String path = exchange.getRequestURI().getPath();
      int status = path.equals("/missing") ? 404 : path.equals("/moved") ? 302 : 200;
      if (status == 302) {
        exchange.getResponseHeaders().add("Location", "/elsewhere");
      }
      byte[] answer = ("{\"path\":\"" + path + "\"}").getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, answer.length);
      exchange.getResponseBody().write(answer);
      exchange.close();
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private URI url(String path) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
  }

  @Test
  void answersOfEveryStatusAreReadOverOneKeptAliveConnection() throws IOException {
    assertEquals(new ComponentHttp.Reply(200, "{\"path\":\"/a\"}"),
        http.send("GET", url("/a"), null, Duration.ofSeconds(2)));
    assertEquals(new ComponentHttp.Reply(404, "{\"path\":\"/missing\"}"),
        http.send("GET", url("/missing"), null, Duration.ofSeconds(2)));
    assertEquals(200, http.send("DELETE", url("/b"), null, Duration.ofSeconds(2)).status());
    assertEquals(3, clientPorts.size());
    assertEquals(1, clientPorts.stream().distinct().count(), "one connection: " + clientPorts);
  }

  @Test
  void aBodyIsSentAsJson() throws IOException {
    http.send("PUT", url("/c"), "{\"x\":1}", Duration.ofSeconds(2));
    http.send("POST", url("/d"), null, Duration.ofSeconds(2));
    assertEquals(List.of("PUT /c application/json {\"x\":1}", "POST /d null "), seen);
  }

  @Test
  void redirectsAreNotFollowed() throws IOException {
    assertEquals(302, http.send("GET", url("/moved"), null, Duration.ofSeconds(2)).status());
    assertEquals(1, seen.size());
  }

  @Test
  void idleConnectionsAreKeptLongerThanTheHeartbeat() {
    assertEquals(Integer.toString(ComponentHttp.KEEP_ALIVE_SECONDS),
        System.getProperty("http.keepAlive.time.server"));
  }

  @Test
  void anUnreachableComponentIsAnIoError() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    URI nobody = URI.create("http://127.0.0.1:" + closedPort + "/x");
    assertThrows(IOException.class, () -> http.send("GET", nobody, null, Duration.ofSeconds(1)));
  }

  @Test
  void otherMethodsAreRefusedByName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> http.send("PATCH", url("/x"), "{}", Duration.ofSeconds(1)));
    assertEquals("method: invalid value PATCH: must be one of GET, POST, PUT, DELETE",
        e.getMessage());
  }
}
