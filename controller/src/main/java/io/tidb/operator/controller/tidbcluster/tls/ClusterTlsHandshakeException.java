package io.tidb.operator.controller.tidbcluster.tls;

import java.io.IOException;

/**
 * A call to a TLS cluster failed in the TLS handshake: the CA of {@code
 * <tc>-cluster-client-secret} does not verify the server, the server's certificate does not name
 * its Service, or the server refused the client certificate. Like any unanswered call, nothing is
 * decided from it; unlike a network failure, it does not pass by waiting.
 */
public final class ClusterTlsHandshakeException extends IOException {

  /** The Warning Event's reason, recorded once per distinct failure. */
  public static final String REASON = "ClusterTLSHandshakeFailed";

  public ClusterTlsHandshakeException(String message, Throwable cause) {
    super(message, cause);
  }
}
