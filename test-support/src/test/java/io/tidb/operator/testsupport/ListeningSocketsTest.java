package io.tidb.operator.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ListeningSocketsTest {

  @Test
  void parsesAnIpv4ListeningRow() throws Exception {
    Optional<ListeningSockets.Entry> entry = ListeningSockets.parse(
        "   3: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 "
            + "0000000000000000 100 0 0 10 0");

    assertEquals(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 8080), entry.orElseThrow().address());
    assertTrue(entry.orElseThrow().listening());
    assertEquals(4242, entry.orElseThrow().inode());
  }

  @Test
  void parsesAnIpv6WildcardRowAndAnEstablishedRow() throws Exception {
    ListeningSockets.Entry wildcard = ListeningSockets.parse(
        "   0: 00000000000000000000000000000000:0016 00000000000000000000000000000000:0000 0A 00000000:00000000 "
            + "00:00000000 00000000     0        0 77 1 0000000000000000 100 0 0 10 0").orElseThrow();
    ListeningSockets.Entry established = ListeningSockets.parse(
        "   1: 0100007F:9C40 0100007F:1F90 01 00000000:00000000 00:00000000 00000000     0        0 78 1 "
            + "0000000000000000 20 4 30 10 -1").orElseThrow();

    assertTrue(wildcard.address().getAddress().isAnyLocalAddress());
    assertEquals(22, wildcard.address().getPort());
    assertFalse(established.listening());
  }

  @Test
  void ipv6LoopbackIsDecodedWordByWord() throws Exception {
    assertEquals(InetAddress.getByName("::1"), ListeningSockets.address("00000000000000000000000001000000"));
  }

  @Test
  void headerRowIsSkipped() {
    assertTrue(ListeningSockets.parse(
        "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode").isEmpty());
  }

  @Test
  void findsTheListenerThisProcessOpened() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      InetSocketAddress expected = new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());

      assertTrue(ListeningSockets.of(ProcessHandle.current().pid()).contains(expected));
    }
  }
}
