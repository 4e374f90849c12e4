package io.tidb.operator.webhook;

import com.fasterxml.jackson.databind.util.TokenBuffer;

/**
 * {@code request.object} or {@code request.oldObject} of a review: read as {@code type} while the
 * body was parsed, or its JSON tokens, to be read later.
 *
 * @param tokens the object's tokens, or null when it was read
 * @param type what it was read as, or null
 * @param read the object read and its type errors, or null
 */
record ReviewObject(TokenBuffer tokens, Class<?> type, TypedObjectReader.Result<?> read) {

  /** An object's tokens; null for none. */
  static ReviewObject tokens(TokenBuffer tokens) {
    return tokens == null ? null : new ReviewObject(tokens, null, null);
  }

  static ReviewObject read(Class<?> type, TypedObjectReader.Result<?> read) {
    return new ReviewObject(null, type, read);
  }
}
