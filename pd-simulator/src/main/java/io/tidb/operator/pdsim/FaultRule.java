package io.tidb.operator.pdsim;

import java.time.Duration;

/**
 * Makes matching requests fail or slow down. Every non-null criterion must match.
 *
 * @param cluster only requests for this cluster, or null for all
 * @param component "pd", "tidb", "ticdc", "tiproxy", "pump" or "tiflash", or null for any
 * @param instance only requests sent to this PD member or pod, or null for any
 * @param method an HTTP method, or null for any
 * @param pathPrefix only paths (relative to the server, e.g. {@code /pd/api/v1/stores}) that
 *     start with this, or null for all
 * @param status the status to fail with, or 0 to answer normally (after the delay)
 * @param delay how long to wait before answering
 * @param times how many matching requests to affect, or 0 for all
 */
public record FaultRule(
    ClusterKey cluster, String component, String instance, String method, String pathPrefix,
    int status, Duration delay, int times) {

  public FaultRule {
    delay = delay == null ? Duration.ZERO : delay;
    if (status != 0 && (status < 100 || status > 599)) {
      throw new IllegalArgumentException(
          "status: invalid value " + status + ": must be 0 (no failure) or 100-599");
    }
    if (delay.isNegative()) {
      throw new IllegalArgumentException("delay: invalid value " + delay + ": must not be negative");
    }
    if (times < 0) {
      throw new IllegalArgumentException("times: invalid value " + times + ": must be >= 0");
    }
    if (status == 0 && delay.isZero()) {
      throw new IllegalArgumentException("a fault rule needs a status or a delay");
    }
  }

  /** Every request under {@code pathPrefix} answers {@code status}. */
  public static FaultRule fail(String pathPrefix, int status) {
    return new FaultRule(null, null, null, null, pathPrefix, status, Duration.ZERO, 0);
  }

  /** Every request under {@code pathPrefix} waits {@code delay} before being answered. */
  public static FaultRule slow(String pathPrefix, Duration delay) {
    return new FaultRule(null, null, null, null, pathPrefix, 0, delay, 0);
  }

  public FaultRule forCluster(ClusterKey key) {
    return new FaultRule(key, component, instance, method, pathPrefix, status, delay, times);
  }

  public FaultRule forMethod(String httpMethod) {
    return new FaultRule(cluster, component, instance, httpMethod, pathPrefix, status, delay, times);
  }

  public FaultRule forInstance(String component, String instance) {
    return new FaultRule(cluster, component, instance, method, pathPrefix, status, delay, times);
  }

  public FaultRule times(int count) {
    return new FaultRule(cluster, component, instance, method, pathPrefix, status, delay, count);
  }

  boolean matches(ClusterKey key, String requestComponent, String requestInstance,
      String requestMethod, String path) {
    return (cluster == null || cluster.equals(key))
        && (component == null || component.equals(requestComponent))
        && (instance == null || instance.equals(requestInstance))
        && (method == null || method.equalsIgnoreCase(requestMethod))
        && (pathPrefix == null || path.startsWith(pathPrefix));
  }
}
