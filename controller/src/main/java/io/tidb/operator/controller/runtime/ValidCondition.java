package io.tidb.operator.controller.runtime;

import io.tidb.operator.api.validation.Violation;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The cluster condition {@code Valid}: whether the spec passes the same validation as the admission
 * webhook. When false, its message lists every violation.
 */
public final class ValidCondition {

  public static final String TYPE = "Valid";
  public static final String REASON_VALID = "Valid";
  /** Also the reason of the Warning Event, as upstream names it. */
  public static final String REASON_INVALID = "FailedValidation";

  private ValidCondition() {}

  /** The message of a {@code Valid=False} condition and its Event. */
  public static String message(List<Violation> violations) {
    return "invalid spec: "
        + violations.stream().map(Violation::message).collect(Collectors.joining("; "));
  }
}
