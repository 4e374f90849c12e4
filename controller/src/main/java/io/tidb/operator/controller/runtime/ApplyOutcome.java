package io.tidb.operator.controller.runtime;

/** What applying one desired object did. */
public enum ApplyOutcome {
  /** The object did not exist and was created. */
  CREATED,
  /** The object existed and differed in a field the operator owns; it was applied. */
  UPDATED,
  /** The object matched; no request was sent. */
  UNCHANGED;

  public boolean wrote() {
    return this != UNCHANGED;
  }
}
