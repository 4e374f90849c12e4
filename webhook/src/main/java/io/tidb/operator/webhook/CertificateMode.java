package io.tidb.operator.webhook;

/** Where the serving certificate comes from. */
public enum CertificateMode {
  /** {@code files} when {@code --cert-dir} is given, otherwise {@code secret}. */
  AUTO,
  /** Self-managed: a CA and serving certificate kept in a Secret, renewed by the webhook itself. */
  SECRET,
  /** Mounted {@code tls.crt}/{@code tls.key} (e.g. cert-manager), reloaded when they change. */
  FILES;

  /** The concrete mode. */
  public CertificateMode resolve(boolean certDirGiven) {
    if (this != AUTO) {
      return this;
    }
    return certDirGiven ? FILES : SECRET;
  }
}
