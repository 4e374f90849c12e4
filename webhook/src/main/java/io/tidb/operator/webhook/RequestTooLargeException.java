package io.tidb.operator.webhook;

/** The request body is larger than the configured limit; the client gets HTTP 413. */
public final class RequestTooLargeException extends RuntimeException {
  public RequestTooLargeException(long limit) {
    super("request body is larger than the limit of " + limit + " bytes");
  }
}
