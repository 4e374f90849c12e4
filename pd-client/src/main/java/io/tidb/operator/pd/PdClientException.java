package io.tidb.operator.pd;

/** A call to PD (or TiDB) did not give a usable answer. */
public class PdClientException extends RuntimeException {

  private final String method;
  private final String path;

  PdClientException(String method, String path, String message, Throwable cause) {
    super(message, cause);
    this.method = method;
    this.path = path;
  }

  /** The HTTP method of the failed call. */
  public String method() {
    return method;
  }

  /** The API path of the failed call, e.g. {@code /pd/api/v1/stores}. */
  public String path() {
    return path;
  }
}
