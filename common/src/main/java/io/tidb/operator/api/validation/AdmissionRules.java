package io.tidb.operator.api.validation;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

/**
 * The admission rules of one custom resource kind: validation on create and update, deprecation
 * warnings, and defaulting. The webhook serves every registered implementation, and the
 * controller runs the same rules on each reconcile, so both processes agree on what is valid.
 *
 * <p>Implementations are pure: no I/O, no mutation of their arguments.
 */
public interface AdmissionRules<T extends HasMetadata> {

  /** The Java type of the resource; also gives group, version and kind. */
  Class<T> resourceType();

  /** Rules checked when an object is created (includes the always-checked rules). */
  List<Violation> validateCreate(T obj);

  /** Rules checked when an object is updated (includes the always-checked rules). */
  List<Violation> validateUpdate(T oldObj, T newObj);

  /** Human-readable warnings, e.g. for deprecated fields; never blocks admission. */
  List<String> warnings(T obj);

  /** A copy of {@code obj} with defaults filled in; idempotent; {@code obj} is not changed. */
  T withDefaults(T obj);
}
