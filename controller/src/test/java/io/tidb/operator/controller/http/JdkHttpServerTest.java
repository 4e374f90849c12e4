package io.tidb.operator.controller.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class JdkHttpServerTest {

  @Test
  void serversAcceptConnectionsWithNagleOff() throws Exception {
    try (JdkHttpServer server =
        JdkHttpServer.bind(new InetSocketAddress("127.0.0.1", 0), "nodelay-test", 1)) {
      assertEquals("true", System.getProperty(JdkHttpServer.NO_DELAY_PROPERTY),
          "the JDK server reads the switch when its first server is made; without it every "
              + "kept-alive answer (discovery's to PD, /metrics) waits for a delayed ACK");
    }
  }
}
