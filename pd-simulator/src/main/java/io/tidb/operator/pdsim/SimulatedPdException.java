package io.tidb.operator.pdsim;

/**
 * An error PD answers with: the HTTP status and the message text exactly as PD words it, and
 * how PD renders it.
 */
public final class SimulatedPdException extends RuntimeException {

  /** How PD puts the error in the response body. */
  public enum Rendering {
    /** A JSON-encoded string (rule R2), e.g. {@code "…"} plus a newline. */
    JSON_STRING,
    /** {@code apiutil.ErrorResp} with code {@code input} (rule R4). */
    INPUT_ERROR,
    /** {@code apiutil.ErrorResp} with code {@code internal}. */
    INTERNAL_ERROR
  }

  private final int status;
  private final Rendering rendering;

  public SimulatedPdException(int status, String message) {
    this(status, message, Rendering.JSON_STRING);
  }

  public SimulatedPdException(int status, String message, Rendering rendering) {
    super(message);
    this.status = status;
    this.rendering = rendering;
  }

  public int status() {
    return status;
  }

  public Rendering rendering() {
    return rendering;
  }

  static SimulatedPdException notBootstrapped() {
    return new SimulatedPdException(
        500, "[PD:cluster:ErrNotBootstrapped]TiKV cluster not bootstrapped, please start TiKV first");
  }

  static SimulatedPdException storeNotFound(long id, int status) {
    return new SimulatedPdException(
        status, "[PD:core:ErrStoreNotFound]store " + id + " not found");
  }
}
