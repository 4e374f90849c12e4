package io.tidb.operator.webhook;

import io.tidb.operator.api.validation.Violation;
import java.util.ArrayList;
import java.util.List;

/** Joins violations found by different checks of one object into one list. Pure. */
final class FieldViolations {

  private FieldViolations() {}

  /**
   * {@code first}, then those of {@code then} that are not about a field of {@code first} or
   * anything under it. A wrongly typed field is read as absent, so a later check saying it is
   * missing or wrong would only repeat the first finding in worse words.
   */
  static List<Violation> plusUncovered(List<Violation> first, List<Violation> then) {
    if (first.isEmpty()) {
      return then;
    }
    List<Violation> all = new ArrayList<>(first);
    for (Violation v : then) {
      if (first.stream().noneMatch(t -> covers(t.field(), v.field()))) {
        all.add(v);
      }
    }
    return all;
  }

  /** Whether {@code field} is {@code typed} or lies under it ({@code a.b} covers {@code a.b[0].c}). */
  static boolean covers(String typed, String field) {
    return field.equals(typed)
        || field.startsWith(typed) && (field.charAt(typed.length()) == '.' || field.charAt(typed.length()) == '[');
  }
}
