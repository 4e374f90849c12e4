package io.tidb.operator.controller.tidbcluster.discovery;

/** A discovery request that cannot be answered; carries the HTTP status to reply with. */
public final class DiscoveryException extends RuntimeException {
  private final int status;

  private DiscoveryException(int status, String message, Throwable cause) {
    super(message, cause);
    this.status = status;
  }

  /** The request itself is wrong (bad encoding, malformed URL, another cluster's pod): 400. */
  public static DiscoveryException badRequest(String message) {
    return new DiscoveryException(400, message, null);
  }

  /** The answer depends on something not available yet (the cluster, PD): 503; the caller retries. */
  public static DiscoveryException unavailable(String message, Throwable cause) {
    return new DiscoveryException(503, message, cause);
  }

  /** The HTTP status code for this failure. */
  public int status() {
    return status;
  }
}
