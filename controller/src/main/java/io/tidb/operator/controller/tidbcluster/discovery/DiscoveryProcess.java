package io.tidb.operator.controller.tidbcluster.discovery;

import io.tidb.operator.pd.ComponentHttp;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Optional;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;

/**
 * A running discovery service: the discovery API ({@link DiscoveryHttpServer}) and the PD dashboard
 * proxy ({@link PdDashboardProxy}), started together and closed together.
 */
public final class DiscoveryProcess implements AutoCloseable {
  private final DiscoveryHttpServer api;
  private final PdDashboardProxy proxy;

  private DiscoveryProcess(DiscoveryHttpServer api, PdDashboardProxy proxy) {
    this.api = api;
    this.proxy = proxy;
  }

  /**
   * @param apiAddress where to serve {@code /new/} and {@code /verify/} (10261 in a cluster)
   * @param proxyAddress where to serve the dashboard proxy (10262 in a cluster)
   * @param pdUrl PD's client URL, the proxy target
   * @param pdHttp the client the proxy reaches PD with (with cluster TLS, one presenting the
   *     cluster client certificate)
   * @param dm answers dm-master's {@code /new/<peer>/dm}
   * @param apiTls with discovery mTLS, the server context of the discovery API
   */
  public static DiscoveryProcess start(
      InetSocketAddress apiAddress, InetSocketAddress proxyAddress, URI pdUrl,
      Supplier<ComponentHttp> pdHttp, DiscoveryService service, DmDiscoveryService dm,
      Optional<SSLContext> apiTls) throws IOException {
    DiscoveryHttpServer api = DiscoveryHttpServer.start(apiAddress, service, dm, apiTls);
    try {
      return new DiscoveryProcess(
          api, PdDashboardProxy.start(proxyAddress, pdUrl, PdDashboardProxy.following(pdHttp)));
    } catch (IOException | RuntimeException e) {
      api.close();
      throw e;
    }
  }

  public int apiPort() {
    return api.port();
  }

  public int proxyPort() {
    return proxy.port();
  }

  @Override
  public void close() {
    proxy.close();
    api.close();
  }
}
