package io.tidb.operator.api.defaulting;

/**
 * Told by a defaulter each field it fills in: the admission webhook's JSON Patch is made of these
 * (one {@code add} per field), so it never has to serialize and compare the whole object before
 * and after defaulting. A defaulter tells a field only when it changes it, and the field's parent
 * is always in the object as it arrived (a defaulter fills a member of something that is there).
 */
@FunctionalInterface
public interface FilledDefaults {

  /** For a caller that only wants the defaulted object. */
  FilledDefaults NONE = (pointer, value) -> { };

  /**
   * The field at {@code pointer} (RFC 6901, from the object's root, e.g. {@code
   * /spec/pd/maxFailoverCount}) was unset or empty and is now {@code value} (never null).
   */
  void filled(String pointer, Object value);
}
