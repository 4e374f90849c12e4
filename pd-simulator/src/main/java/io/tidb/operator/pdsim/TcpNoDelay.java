package io.tidb.operator.pdsim;

/**
 * Turns Nagle's algorithm off for the JDK HTTP servers the simulators run on, as Go's net/http
 * (PD, TiDB, DM) does on every connection. The JDK server leaves it on by default and writes an
 * answer's headers and body separately, so each answer on a kept-alive connection waited for the
 * client's delayed ACK, about 40 ms on Linux: a simulated PD answered 50 times slower than a
 * real one. The JDK reads the property once, when the process makes its first server; a value
 * the process was started with is kept.
 */
public final class TcpNoDelay {

  /** The JDK server's switch. */
  public static final String PROPERTY = "sun.net.httpserver.nodelay";

  private TcpNoDelay() {}

  /** Sets {@link #PROPERTY} to true unless it is set already; call before making a server. */
  public static void forJdkHttpServers() {
    if (System.getProperty(PROPERTY) == null) {
      System.setProperty(PROPERTY, "true");
    }
  }
}
