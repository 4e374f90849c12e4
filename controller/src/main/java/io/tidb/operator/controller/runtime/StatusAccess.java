package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.Condition;
import io.tidb.operator.api.ApiObjects;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How the shared reconcile skeleton reads and writes one kind's status: a new empty status, a deep
 * copy, the observed generation and the {@code conditions} list.
 *
 * @param <S> the status type
 */
public interface StatusAccess<S> {

  S empty();

  S copy(S status);

  void setObservedGeneration(S status, Long generation);

  List<Condition> conditions(S status);

  void setConditions(S status, List<Condition> conditions);

  /**
   * The part of {@code status} the controller writes (server-side apply, its own field manager).
   * The whole status by default; a kind whose status has another writer (a Job's program) returns
   * only the controller's fields, so each writer owns its own.
   */
  default S applied(S status) {
    return status;
  }

  /**
   * What else a stored object whose spec breaks the rules shows besides {@code Valid=False}:
   * nothing by default; a kind with a phase of its own for it (a Backup's {@code Invalid}) sets it.
   */
  default void invalid(S status) {}

  /** The access to a status bean with the usual accessors; copies are deep copies. */
  static <S> StatusAccess<S> of(
      Supplier<S> empty,
      BiConsumer<S, Long> setObservedGeneration,
      Function<S, List<Condition>> conditions,
      BiConsumer<S, List<Condition>> setConditions) {
    return new StatusAccess<>() {
      @Override
      public S empty() {
        return empty.get();
      }

      @Override
      public S copy(S status) {
        return ApiObjects.deepCopy(status);
      }

      @Override
      public void setObservedGeneration(S status, Long generation) {
        setObservedGeneration.accept(status, generation);
      }

      @Override
      public List<Condition> conditions(S status) {
        return conditions.apply(status);
      }

      @Override
      public void setConditions(S status, List<Condition> list) {
        setConditions.accept(status, list);
      }
    };
  }
}
