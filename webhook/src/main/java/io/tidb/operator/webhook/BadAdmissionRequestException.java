package io.tidb.operator.webhook;

/** The request body is not an AdmissionReview this server can answer; the client gets HTTP 400. */
public final class BadAdmissionRequestException extends RuntimeException {
  public BadAdmissionRequestException(String message) {
    super(message);
  }
}
