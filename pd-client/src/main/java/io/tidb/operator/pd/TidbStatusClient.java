package io.tidb.operator.pd;

import java.net.URI;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Asks a TiDB server's status port whether it is healthy: {@code GET <base>/status}. */
public final class TidbStatusClient {

  private static final Logger LOG = LoggerFactory.getLogger(TidbStatusClient.class);

  private final PdHttp http;

  public TidbStatusClient(ComponentHttp httpClient, Duration requestTimeout) {
    this.http = new PdHttp(httpClient, requestTimeout);
  }

  public static TidbStatusClient create(PdClientOptions options) {
    return new TidbStatusClient(options.newHttpClient(), options.requestTimeout());
  }

  /**
   * Healthy iff the status endpoint answers 200 in time; any other status, a connection failure
   * or a timeout means unhealthy.
   *
   * @param statusUrl the server's status base URL, e.g. {@code
   *     http://basic-tidb-0.basic-tidb-peer.default:10080}
   */
  public boolean isHealthy(URI statusUrl) {
    try {
      int status = http.send(statusUrl, "GET", "/status", null).status();
      if (status != 200) {
        LOG.debug("tidb unhealthy url={} status={}", statusUrl, status);
      }
      return status == 200;
    } catch (PdConnectionException e) {
      LOG.debug("tidb unreachable url={} timeout={} error={}", statusUrl, e.isTimeout(),
          e.getMessage());
      return false;
    }
  }
}
