package io.tidb.operator.controller.backup;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.tidbcluster.ClusterApiFactory;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How the Backup controller reads a running log backup's checkpoint, and how often.
 *
 * @param source the keys under a prefix of the cluster's PD etcd, with their bytes, in key order
 * @param period how often it is read while the log backup runs (upstream: once a minute)
 */
public record LogCheckpoints(Source source, Duration period) {

  /** Default period, upstream's {@code refreshCheckpointTsPeriod}. */
  public static final Duration DEFAULT_PERIOD = Duration.ofMinutes(1);

  /** Reads PD's etcd of one cluster. */
  @FunctionalInterface
  public interface Source {
    /**
     * @throws RuntimeException when PD cannot be reached or answers with an error (including a
     *     TLS cluster whose client certificate Secret is missing)
     */
    Map<String, byte[]> read(TidbCluster cluster, String prefix);
  }

  public LogCheckpoints {
    Objects.requireNonNull(source, "source");
    if (period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException("period: Invalid value: \"" + period + "\": must be positive");
    }
  }

  /**
   * Through PD's etcd gateway, as every other PD call of the operator: plain, or for a TLS cluster
   * over HTTPS with the client certificate of {@code <cluster>-cluster-client-secret}.
   */
  public static LogCheckpoints fromPd(ClusterApiFactory clusters, Duration period) {
    return new LogCheckpoints((tc, prefix) -> clusters.pdEtcd(tc).rangeBytes(prefix), period);
  }
}
