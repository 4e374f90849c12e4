package io.tidb.operator.pd;

import java.time.Duration;
import javax.net.ssl.SSLContext;

/**
 * How PD and TiDB clients connect.
 *
 * @param connectTimeout time allowed to open a connection
 * @param requestTimeout time allowed for a whole request
 * @param sslContext the TLS context for https URLs (cluster client certificate and CA), or null
 */
public record PdClientOptions(
    Duration connectTimeout, Duration requestTimeout, SSLContext sslContext) {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  public PdClientOptions {
    requirePositive("connectTimeout", connectTimeout);
    requirePositive("requestTimeout", requestTimeout);
  }

  private static void requirePositive(String field, Duration value) {
    if (value == null || value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(
          field + ": invalid value " + value + ": must be a positive duration");
    }
  }

  /** 5 s connect and request timeouts (as upstream), no TLS. */
  public static PdClientOptions defaults() {
    return new PdClientOptions(DEFAULT_TIMEOUT, DEFAULT_TIMEOUT, null);
  }

  public PdClientOptions withTimeouts(Duration connect, Duration request) {
    return new PdClientOptions(connect, request, sslContext);
  }

  public PdClientOptions withSslContext(SSLContext context) {
    return new PdClientOptions(connectTimeout, requestTimeout, context);
  }

  /** An HTTP client for these options; share it between the clients of many clusters. */
  public ComponentHttp newHttpClient() {
    return sslContext == null
        ? ComponentHttp.plain(connectTimeout)
        : ComponentHttp.tls(connectTimeout, sslContext);
  }
}
