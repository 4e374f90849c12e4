package io.tidb.operator.api.validation;

import java.util.Objects;

/**
 * One broken rule, in the style of Kubernetes' {@code field.Error}: the field path, the offending
 * value and what is allowed. Validators return every violation they find, never just the first.
 *
 * @param field JSON path of the field, e.g. {@code spec.pd.requests.storage}
 * @param type the kind of violation (how Kubernetes words it)
 * @param value the bad value as the user wrote it; {@code null} when the field is missing
 * @param detail what is allowed, in plain words
 */
public record Violation(String field, Type type, Object value, String detail) {

  /** The kinds of violation, worded as Kubernetes words them. */
  public enum Type {
    REQUIRED("Required value"),
    INVALID("Invalid value"),
    FORBIDDEN("Forbidden"),
    NOT_SUPPORTED("Unsupported value"),
    DUPLICATE("Duplicate value"),
    IMMUTABLE("Invalid value");

    private final String phrase;

    Type(String phrase) {
      this.phrase = phrase;
    }

    public String phrase() {
      return phrase;
    }
  }

  public Violation {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(detail, "detail");
  }

  public static Violation required(String field, String detail) {
    return new Violation(field, Type.REQUIRED, null, detail);
  }

  public static Violation invalid(String field, Object value, String detail) {
    return new Violation(field, Type.INVALID, value, detail);
  }

  public static Violation forbidden(String field, String detail) {
    return new Violation(field, Type.FORBIDDEN, null, detail);
  }

  public static Violation notSupported(String field, Object value, String detail) {
    return new Violation(field, Type.NOT_SUPPORTED, value, detail);
  }

  public static Violation immutable(String field, Object value, String detail) {
    return new Violation(field, Type.IMMUTABLE, value, detail);
  }

  /**
   * The message a user sees, e.g. {@code spec.pd.replicas: Invalid value: -1: must be greater
   * than or equal to 0}.
   */
  public String message() {
    StringBuilder sb = new StringBuilder(field).append(": ").append(type.phrase());
    if (type != Type.REQUIRED && type != Type.FORBIDDEN) {
      sb.append(": ").append(render(value));
    }
    return sb.append(": ").append(detail).toString();
  }

  private static String render(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof CharSequence s) {
      return '"' + s.toString() + '"';
    }
    return String.valueOf(value);
  }

  @Override
  public String toString() {
    return message();
  }
}
