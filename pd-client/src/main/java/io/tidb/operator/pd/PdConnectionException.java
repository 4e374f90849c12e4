package io.tidb.operator.pd;

import java.net.http.HttpTimeoutException;

/** PD could not be reached, or did not answer in time. */
public final class PdConnectionException extends PdClientException {

  PdConnectionException(String method, String url, String path, Throwable cause) {
    super(method, path, method + " " + url + " failed: "
        + (cause instanceof HttpTimeoutException ? "timed out" : String.valueOf(cause)), cause);
  }

  /** Whether the call failed because the connect or request timeout passed. */
  public boolean isTimeout() {
    return getCause() instanceof HttpTimeoutException;
  }
}
