package io.tidb.operator.webhook;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.api.model.StatusCauseBuilder;
import io.tidb.operator.api.validation.Violation;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The {@code status} of a refused admission, shaped like the API server's own errors so kubectl
 * prints them the familiar way. The API server prefixes the message with {@code admission webhook
 * "<name>" denied the request: }.
 */
final class Denials {

  static final int INVALID = 422;
  static final int BAD_REQUEST = 400;
  static final int INTERNAL_ERROR = 500;

  private Denials() {}

  /**
   * One message listing every violation, e.g. {@code TidbCluster "basic" is invalid:
   * spec.pd.replicas: Invalid value: -1: must be at least 0; spec.tikv: Required value: ...}.
   */
  static String invalidMessage(String kind, String name, List<Violation> violations) {
    return kind + " \"" + name + "\" is invalid: "
        + violations.stream().map(Violation::message).collect(Collectors.joining("; "));
  }

  /** 422 Invalid with one cause per violation. */
  static Status invalid(String group, String kind, String name, List<Violation> violations) {
    return new StatusBuilder()
        .withStatus("Failure")
        .withCode(INVALID)
        .withReason("Invalid")
        .withMessage(invalidMessage(kind, name, violations))
        .withNewDetails()
        .withGroup(group)
        .withKind(kind)
        .withName(name)
        .withCauses(violations.stream().map(Denials::cause).toList())
        .endDetails()
        .build();
  }

  static Status badRequest(String message) {
    return failure(BAD_REQUEST, "BadRequest", message);
  }

  static Status internalError(String message) {
    return failure(INTERNAL_ERROR, "InternalError", message);
  }

  private static Status failure(int code, String reason, String message) {
    return new StatusBuilder()
        .withStatus("Failure")
        .withCode(code)
        .withReason(reason)
        .withMessage(message)
        .build();
  }

  private static StatusCause cause(Violation v) {
    String full = v.message();
    String body = full.substring(Math.min(full.length(), v.field().length() + 2));
    return new StatusCauseBuilder()
        .withField(v.field())
        .withReason(causeReason(v.type()))
        .withMessage(body)
        .build();
  }

  private static String causeReason(Violation.Type type) {
    return switch (type) {
      case REQUIRED -> "FieldValueRequired";
      case FORBIDDEN -> "FieldValueForbidden";
      case NOT_SUPPORTED -> "FieldValueNotSupported";
      case DUPLICATE -> "FieldValueDuplicate";
      case INVALID, IMMUTABLE -> "FieldValueInvalid";
    };
  }
}
