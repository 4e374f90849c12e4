package io.tidb.operator.pd;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * The order in which this process offers TLS cipher suites as a client (the set stays the JDK's).
 *
 * <p>Without C2 (the controller runs C1 only: {@code -XX:TieredStopAtLevel=1}), the JDK's AES-GCM
 * runs without its AES and GHASH intrinsics, and ChaCha20-Poly1305 is the cheaper cipher: 77-89
 * against 20-21 MB encrypted and decrypted per CPU second on the development machine (with C2,
 * 127-136 against 274-850; {@code CipherThroughputBenchmark}). Go's TLS servers (the Kubernetes
 * API server, PD, TiDB, TiCDC, DM) choose ChaCha20-Poly1305 when the client lists it before
 * AES-GCM, so such a process lists the ChaCha20 suites first. With C2 the JDK's order stays.
 * docs/benchmarks-controller.md has the figures.
 */
public final class CipherSuitePreference {

  private static final String CHACHA20 = "_CHACHA20_POLY1305_";

  private CipherSuitePreference() {}

  /**
   * {@code suites} in the order to offer them: unchanged with an optimising compiler, else the
   * ChaCha20-Poly1305 suites first, each group in its given order.
   */
  static List<String> order(List<String> suites, boolean optimizingCompiler) {
    if (optimizingCompiler) {
      return List.copyOf(suites);
    }
    List<String> ordered = new ArrayList<>(suites.size());
    suites.stream().filter(s -> s.contains(CHACHA20)).forEach(ordered::add);
    suites.stream().filter(s -> !s.contains(CHACHA20)).forEach(ordered::add);
    return List.copyOf(ordered);
  }

  /**
   * Whether this JVM compiles hot code with C2: tiered compilation up to level 4, or C2 alone.
   * Assumed when the JVM does not say (no HotSpot diagnostic bean). Read once: the JVM's options
   * do not change while it runs.
   */
  public static boolean optimizingCompiler() {
    return Jit.OPTIMIZING;
  }

  /** The JIT this JVM runs, read from its options the first time it is asked. */
  private static final class Jit {
    static final boolean OPTIMIZING = readOptimizingCompiler();
  }

  private static boolean readOptimizingCompiler() {
    try {
      HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      if (vm == null) {
        return true;
      }
      boolean tiered = Boolean.parseBoolean(vm.getVMOption("TieredCompilation").getValue());
      int stopAt = Integer.parseInt(vm.getVMOption("TieredStopAtLevel").getValue());
      return !tiered || stopAt >= 4;
    } catch (RuntimeException | LinkageError e) {
      return true;
    }
  }

  /**
   * {@code context}'s default client parameters, with the suites in the order for a JVM with or
   * without an optimising compiler.
   */
  public static SSLParameters parameters(SSLContext context, boolean optimizingCompiler) {
    SSLParameters parameters = context.getDefaultSSLParameters();
    parameters.setCipherSuites(
        order(Arrays.asList(parameters.getCipherSuites()), optimizingCompiler).toArray(String[]::new));
    return parameters;
  }

  /** {@code context}'s socket factory, whose sockets offer the suites in this process's order. */
  public static SSLSocketFactory socketFactory(SSLContext context) {
    return socketFactory(context, optimizingCompiler());
  }

  /** As above, for a JVM with or without an optimising compiler. */
  public static SSLSocketFactory socketFactory(SSLContext context, boolean optimizingCompiler) {
    SSLSocketFactory factory = context.getSocketFactory();
    if (optimizingCompiler) {
      return factory;
    }
    return new OrderedSocketFactory(factory, parameters(context, false).getCipherSuites());
  }

  /** Sets the enabled suites, in order, on every socket its delegate makes. */
  private static final class OrderedSocketFactory extends SSLSocketFactory {

    private final SSLSocketFactory delegate;
    private final String[] suites;

    OrderedSocketFactory(SSLSocketFactory delegate, String[] suites) {
      this.delegate = delegate;
      this.suites = suites;
    }

    private Socket ordered(Socket socket) {
      if (socket instanceof SSLSocket ssl) {
        ssl.setEnabledCipherSuites(suites);
      }
      return socket;
    }

    @Override
    public String[] getDefaultCipherSuites() {
      return suites.clone();
    }

    @Override
    public String[] getSupportedCipherSuites() {
      return delegate.getSupportedCipherSuites();
    }

    @Override
    public Socket createSocket() throws IOException {
      return ordered(delegate.createSocket());
    }

    @Override
    public Socket createSocket(Socket s, String host, int port, boolean autoClose) throws IOException {
      return ordered(delegate.createSocket(s, host, port, autoClose));
    }

    @Override
    public Socket createSocket(Socket s, InputStream consumed, boolean autoClose) throws IOException {
      return ordered(delegate.createSocket(s, consumed, autoClose));
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
      return ordered(delegate.createSocket(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort)
        throws IOException {
      return ordered(delegate.createSocket(host, port, localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
      return ordered(delegate.createSocket(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
        throws IOException {
      return ordered(delegate.createSocket(address, port, localAddress, localPort));
    }
  }
}
