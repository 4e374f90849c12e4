package io.tidb.operator.pd;

/** PD answered that no TiKV has bootstrapped the cluster yet. */
public final class PdNotBootstrappedException extends PdApiException {

  static final String BODY_SUFFIX = "TiKV cluster not bootstrapped, please start TiKV first\"\n";

  PdNotBootstrappedException(String method, String url, String path, int status, String body) {
    super(method, url, path, status, body, "TiKV cluster not bootstrapped");
  }

  /** PD's not-bootstrapped answer: a 500 whose body ends with PD's exact message. */
  static boolean matches(int status, String body) {
    return status == 500 && body != null && body.endsWith(BODY_SUFFIX);
  }
}
