package io.tidb.operator.certs;

/** What to do with the stored certificates. */
public enum RenewalAction {
  /** Keep them. */
  NOOP,
  /** Nothing usable is stored: create a CA and a serving certificate. */
  CREATE,
  /** Keep the CA, issue a new serving certificate. */
  RENEW_LEAF,
  /** Create a new CA and serving certificate; keep trusting the old CA until it expires. */
  ROTATE_CA
}
