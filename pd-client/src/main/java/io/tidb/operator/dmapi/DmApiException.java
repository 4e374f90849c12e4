package io.tidb.operator.dmapi;

/**
 * A DM master API call that did not succeed: the master was not reachable, answered a status
 * other than 200, refused the request ({@code "result": false}) or sent a body that does not
 * decode.
 */
public final class DmApiException extends RuntimeException {

  /** Why the call failed. */
  public enum Reason { UNREACHABLE, HTTP_STATUS, REFUSED, UNDECODABLE }

  private static final int EXCERPT_LENGTH = 300;

  private final Reason reason;
  private final String method;
  private final String url;
  private final int status;

  DmApiException(Reason reason, String method, String url, int status, String detail, Throwable cause) {
    super(method + " " + url + " " + describe(reason, status) + ": " + excerpt(detail), cause);
    this.reason = reason;
    this.method = method;
    this.url = url;
    this.status = status;
  }

  public Reason reason() {
    return reason;
  }

  public String method() {
    return method;
  }

  public String url() {
    return url;
  }

  /** The HTTP status, or 0 when there was no answer. */
  public int status() {
    return status;
  }

  private static String describe(Reason reason, int status) {
    return switch (reason) {
      case UNREACHABLE -> "failed";
      case HTTP_STATUS -> "answered " + status;
      case REFUSED -> "was refused";
      case UNDECODABLE -> "answered a body that does not decode";
    };
  }

  static String excerpt(String text) {
    String oneLine = text == null ? "" : text.strip().replaceAll("\\s*\\n\\s*", " ");
    return oneLine.length() <= EXCERPT_LENGTH ? oneLine : oneLine.substring(0, EXCERPT_LENGTH) + "…";
  }
}
