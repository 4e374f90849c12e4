package io.tidb.operator.api.validation;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.defaulting.FilledDefaults;
import java.util.List;

/**
 * The admission rules of one custom resource kind, in three sets: what is checked when an object
 * is created, when it is updated, and on a <em>stored</em> object (what the controller checks on
 * every reconcile); plus deprecation warnings and defaulting. The webhook serves the create and
 * update rules of every registered implementation; the controller runs the stored-object rules,
 * so an object admitted under an older operator, which may use a field refused on create today,
 * keeps being reconciled (as upstream's controller does).
 *
 * <p>Implementations are pure: no I/O, no mutation of their arguments ({@link #defaultInPlace}
 * apart, which fills in its argument by contract). An implementation gives the rules on defaulted
 * objects and the defaulting; the rules on objects as they arrive follow from them.
 */
public interface AdmissionRules<T extends HasMetadata> {

  /** The Java type of the resource; also gives group, version and kind. */
  Class<T> resourceType();

  /**
   * Rules checked when an object is created (includes the always-checked rules): those of {@link
   * #validateCreateDefaulted} on the object with its defaults.
   */
  default List<Violation> validateCreate(T obj) {
    return validateCreateDefaulted(withDefaults(obj));
  }

  /**
   * Rules checked when an object is updated (includes the always-checked rules): those of {@link
   * #validateUpdateDefaulted} on both objects with their defaults.
   */
  default List<Violation> validateUpdate(T oldObj, T newObj) {
    return validateUpdateDefaulted(withDefaults(oldObj), withDefaults(newObj));
  }

  /** {@link #validateCreate} of an object already defaulted, for a caller that defaulted it. */
  List<Violation> validateCreateDefaulted(T defaulted);

  /** {@link #validateUpdate} of two objects already defaulted. */
  List<Violation> validateUpdateDefaulted(T oldDefaulted, T newDefaulted);

  /**
   * Rules every stored object must satisfy for the controller to act on it: the always-checked
   * rules without the create-only ones (such as deprecated fields refused on create); those of
   * {@link #validateStoredDefaulted} on the object with its defaults.
   */
  default List<Violation> validateStored(T obj) {
    return validateStoredDefaulted(withDefaults(obj));
  }

  /**
   * {@link #validateStored} of an object already defaulted, for a caller that defaulted it (the
   * controller defaults each object it reconciles once, and judges that copy).
   */
  List<Violation> validateStoredDefaulted(T defaulted);

  /** Human-readable warnings, e.g. for deprecated fields; never blocks admission. */
  List<String> warnings(T obj);

  /**
   * Fills the defaults into {@code obj} itself and returns it; idempotent. For a caller that owns
   * its object (the webhook reads a fresh one from each review), which spares the copy of {@link
   * #withDefaults}.
   */
  default T defaultInPlace(T obj) {
    return defaultInPlace(obj, FilledDefaults.NONE);
  }

  /** {@link #defaultInPlace(Object)}, telling {@code filled} each field it fills in. */
  T defaultInPlace(T obj, FilledDefaults filled);

  /** A copy of {@code obj} with defaults filled in; idempotent; {@code obj} is not changed. */
  default T withDefaults(T obj) {
    return defaultInPlace(ApiObjects.deepCopy(obj));
  }
}
