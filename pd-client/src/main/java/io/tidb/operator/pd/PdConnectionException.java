package io.tidb.operator.pd;

import java.net.SocketTimeoutException;
import javax.net.ssl.SSLException;

/** PD could not be reached, or did not answer in time. */
public final class PdConnectionException extends PdClientException {

  PdConnectionException(String method, String url, String path, Throwable cause) {
    super(method, path, method + " " + url + " failed: " + describe(cause), cause);
  }

  private static String describe(Throwable cause) {
    if (cause instanceof SocketTimeoutException) {
      return "timed out";
    }
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof SSLException) {
        Throwable root = t;
        while (root.getCause() != null) {
          root = root.getCause();
        }
        return "TLS handshake failed: " + root.getMessage();
      }
    }
    return String.valueOf(cause);
  }

  /** Whether the call failed because the connect or request timeout passed. */
  public boolean isTimeout() {
    return getCause() instanceof SocketTimeoutException;
  }
}
