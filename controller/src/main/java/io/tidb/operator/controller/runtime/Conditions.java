package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Pure helpers for {@code metav1.Condition} lists. */
public final class Conditions {

  public static final String TRUE = "True";
  public static final String FALSE = "False";

  private Conditions() {}

  /** RFC 3339 with whole seconds, as Kubernetes writes timestamps. */
  public static String timestamp(Instant instant) {
    return DateTimeFormatter.ISO_INSTANT.format(instant.truncatedTo(ChronoUnit.SECONDS));
  }

  public static Optional<Condition> find(List<Condition> conditions, String type) {
    if (conditions == null) {
      return Optional.empty();
    }
    return conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  /**
   * A copy of {@code conditions} with the condition of {@code type} set. Its {@code
   * lastTransitionTime} is {@code now} only when its status changed (or it is new); otherwise the
   * old time is kept, so re-evaluating an unchanged condition changes nothing.
   */
  public static List<Condition> set(
      List<Condition> conditions,
      String type,
      String status,
      String reason,
      String message,
      Long observedGeneration,
      Instant now) {
    Optional<Condition> old = find(conditions, type);
    String transition =
        old.filter(c -> Objects.equals(c.getStatus(), status))
            .map(Condition::getLastTransitionTime)
            .orElse(timestamp(now));
    Condition updated =
        new ConditionBuilder()
            .withType(type)
            .withStatus(status)
            .withReason(reason)
            .withMessage(message)
            .withObservedGeneration(observedGeneration)
            .withLastTransitionTime(transition)
            .build();
    List<Condition> result = new ArrayList<>();
    boolean replaced = false;
    if (conditions != null) {
      for (Condition c : conditions) {
        if (type.equals(c.getType())) {
          result.add(updated);
          replaced = true;
        } else {
          result.add(c);
        }
      }
    }
    if (!replaced) {
      result.add(updated);
    }
    return result;
  }

  /** A copy of {@code conditions} without the condition of {@code type}; null when none is left. */
  public static List<Condition> remove(List<Condition> conditions, String type) {
    if (conditions == null) {
      return null;
    }
    List<Condition> result =
        conditions.stream().filter(c -> !type.equals(c.getType())).toList();
    return result.isEmpty() ? null : new ArrayList<>(result);
  }
}
