package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The operator's informers watch over the client's HTTP/2 connection instead of a WebSocket
 * connection each ({@code KubeClients.configure}): starting every controller and bringing a
 * cluster up opens a handful of connections to the API server, not one per informer (about 50,
 * each a TLS handshake). The operator's client goes through a {@link LoopbackTcpProxy} that
 * counts the connections.
 */
@WithLocalControlPlane
class ApiConnectionsIT {

  /**
   * The bound: the controllers are built and their informers started once the client's first
   * connection is open ({@code KubeClients.connect}, as {@code ControllerMain} does), so they all
   * share it. Before that, every request that began before the first HTTP/2 connection was up
   * opened its own (7 here); before that again, every informer (about 50) had a WebSocket
   * connection of its own.
   */
  private static final int MOST_CONNECTIONS = 1;

  private static ControllerHarness h;
  private static LoopbackTcpProxy proxy;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "api-conns", Duration.ofSeconds(30));
    proxy = h.restartOperatorBehindProxy();
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close(); // and the proxy
    }
  }

  @Test
  void informersShareTheClientsConnection() {
    int atStart = proxy.accepted();
    h.create(Fixtures.small("conns", null));
    h.awaitReady("conns");
    int total = proxy.accepted();
    System.out.printf(
        "ApiConnectionsIT: %d connections to the API server when every controller had started,"
            + " %d after a cluster came up%n", atStart, total);
    assertTrue(total <= MOST_CONNECTIONS,
        "at most " + MOST_CONNECTIONS + " connections to the API server, opened " + total);
  }
}
