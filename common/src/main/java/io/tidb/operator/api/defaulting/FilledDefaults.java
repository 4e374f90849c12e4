package io.tidb.operator.api.defaulting;

import java.util.function.Consumer;

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

  /** When {@code have} is null: {@code value} is set with {@code set} and told at {@code pointer}. */
  default <V> void fillUnset(V have, Consumer<V> set, V value, String pointer) {
    if (have == null) {
      set.accept(value);
      filled(pointer, value);
    }
  }

  /** {@link #fillUnset} for a string that is unset when null or empty. */
  default void fillEmpty(String have, Consumer<String> set, String value, String pointer) {
    fillUnset(have == null || have.isEmpty() ? null : have, set, value, pointer);
  }
}
