package io.tidb.operator.pd;

/** PD answered with a status the call does not accept, or with a body that does not decode. */
public class PdApiException extends PdClientException {

  private static final int EXCERPT_LENGTH = 300;

  private final int status;
  private final String bodyExcerpt;

  PdApiException(String method, String url, String path, int status, String body, String detail) {
    super(method, path, method + " " + url + " answered " + status
        + (detail == null ? "" : " (" + detail + ")") + ": " + excerpt(body), null);
    this.status = status;
    this.bodyExcerpt = excerpt(body);
  }

  /** The HTTP status PD answered with. */
  public int status() {
    return status;
  }

  /** The start of the response body, on one line. */
  public String bodyExcerpt() {
    return bodyExcerpt;
  }

  static String excerpt(String body) {
    String oneLine = body == null ? "" : body.strip().replaceAll("\\s*\\n\\s*", " ");
    return oneLine.length() <= EXCERPT_LENGTH ? oneLine
        : oneLine.substring(0, EXCERPT_LENGTH) + "…";
  }
}
