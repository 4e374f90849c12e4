package io.tidb.operator.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Ports for servers that tests and benchmarks start on 127.0.0.1. */
public final class LoopbackPorts {

  private LoopbackPorts() {}

  /** A port that was free on the loopback address a moment ago (the kernel picked it). */
  public static int free() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
