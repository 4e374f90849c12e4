package io.tidb.operator.webhook;

/** The two admission endpoints. */
public enum AdmissionOperation {
  VALIDATE("/validate"),
  MUTATE("/mutate");

  private final String path;

  AdmissionOperation(String path) {
    this.path = path;
  }

  public String path() {
    return path;
  }

  /** Lower-case name, used as the metrics tag. */
  public String tag() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
