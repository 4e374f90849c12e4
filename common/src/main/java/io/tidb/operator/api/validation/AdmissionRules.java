package io.tidb.operator.api.validation;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

/**
 * The admission rules of one custom resource kind, in three sets: what is checked when an object
 * is created, when it is updated, and on a <em>stored</em> object (what the controller checks on
 * every reconcile); plus deprecation warnings and defaulting. The webhook serves the create and
 * update rules of every registered implementation; the controller runs the stored-object rules,
 * so an object admitted under an older operator, which may use a field refused on create today,
 * keeps being reconciled (as upstream's controller does).
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

  /**
   * Rules every stored object must satisfy for the controller to act on it: the always-checked
   * rules without the create-only ones (such as deprecated fields refused on create).
   */
  List<Violation> validateStored(T obj);

  /** Human-readable warnings, e.g. for deprecated fields; never blocks admission. */
  List<String> warnings(T obj);

  /** A copy of {@code obj} with defaults filled in; idempotent; {@code obj} is not changed. */
  T withDefaults(T obj);

  /*
   * For a caller that owns its object (the webhook reads a fresh one from each review): the same
   * answers without the copy that withDefaults makes. Every rule set judges the defaulted object
   * (validateCreate(o) depends on o only through withDefaults(o)) and defaulting is idempotent, so
   * the defaults below are right for every implementation; an implementation overrides them to
   * spare the copy.
   */

  /**
   * Fills the defaults into {@code obj} itself and returns the defaulted object, equal to {@code
   * withDefaults(obj)}; {@code obj} may be changed. Default: {@link #withDefaults} (a copy).
   */
  default T defaultInPlace(T obj) {
    return withDefaults(obj);
  }

  /**
   * {@link #validateCreate} of an object already defaulted ({@link #withDefaults} or {@link
   * #defaultInPlace}): the same violations, without defaulting it again.
   */
  default List<Violation> validateCreateDefaulted(T defaulted) {
    return validateCreate(defaulted);
  }

  /** {@link #validateUpdate} of two objects already defaulted: the same violations. */
  default List<Violation> validateUpdateDefaulted(T oldDefaulted, T newDefaulted) {
    return validateUpdate(oldDefaulted, newDefaulted);
  }
}
