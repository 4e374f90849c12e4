package io.tidb.operator.api.config;

/** A component configuration that is not valid TOML or not a table of keys. */
public class InvalidConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public InvalidConfigException(String message) {
    super(message);
  }

  public InvalidConfigException(String message, Throwable cause) {
    super(message, cause);
  }
}
