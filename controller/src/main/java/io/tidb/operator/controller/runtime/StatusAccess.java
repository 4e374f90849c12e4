package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

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
}
