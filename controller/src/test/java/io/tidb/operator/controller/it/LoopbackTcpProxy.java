package io.tidb.operator.controller.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on 127.0.0.1 in front of one address (the API server), which a test can cut: every
 * open connection is closed and new ones are refused, as when the API server is down, until it is
 * restored on the same port. Bytes pass through untouched, so TLS is end to end.
 */
final class LoopbackTcpProxy implements AutoCloseable {

  private final InetSocketAddress target;
  private final int port;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final AtomicInteger accepted = new AtomicInteger();
  private volatile ServerSocket listener;

  private LoopbackTcpProxy(InetSocketAddress target, ServerSocket listener) {
    this.target = target;
    this.listener = listener;
    this.port = listener.getLocalPort();
    accept(listener);
  }

  /** A proxy to {@code target} on a free loopback port. */
  static LoopbackTcpProxy start(InetSocketAddress target) {
    return new LoopbackTcpProxy(target, bind(0));
  }

  int port() {
    return port;
  }

  /** How many connections clients have opened through the proxy so far. */
  int accepted() {
    return accepted.get();
  }

  /** Closes every connection and refuses new ones. */
  synchronized void cut() {
    closeQuietly(listener);
    listener = null;
    open.forEach(LoopbackTcpProxy::closeQuietly);
    open.clear();
  }

  /** Accepts connections again, on the same port. */
  synchronized void restore() {
    if (listener == null) {
      listener = bind(port);
      accept(listener);
    }
  }

  @Override
  public void close() {
    cut();
  }

  private static ServerSocket bind(int port) {
    try {
      ServerSocket s = new ServerSocket();
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      return s;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on 127.0.0.1:" + port, e);
    }
  }

  private void accept(ServerSocket server) {
    Thread t = new Thread(() -> {
      while (!server.isClosed()) {
        Socket client;
        try {
          client = server.accept();
        } catch (IOException closed) {
          return;
        }
        accepted.incrementAndGet();
        try {
          Socket upstream = new Socket(target.getAddress(), target.getPort());
          open.add(client);
          open.add(upstream);
          pump(client, upstream);
          pump(upstream, client);
        } catch (IOException refused) {
          closeQuietly(client);
        }
      }
    }, "tcp-proxy-accept-" + port);
    t.setDaemon(true);
    t.start();
  }

  private void pump(Socket from, Socket to) {
    Thread t = new Thread(() -> {
      byte[] buffer = new byte[16 * 1024];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        for (int n; (n = in.read(buffer)) >= 0; ) {
          out.write(buffer, 0, n);
          out.flush();
        }
      } catch (IOException closed) {
        // either side closed, or the proxy was cut
      } finally {
        closeQuietly(from);
        closeQuietly(to);
        open.remove(from);
        open.remove(to);
      }
    }, "tcp-proxy-pump-" + port);
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(AutoCloseable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (Exception ignored) {
      // already closed
    }
  }
}
