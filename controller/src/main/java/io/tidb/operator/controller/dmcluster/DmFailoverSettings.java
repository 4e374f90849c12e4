package io.tidb.operator.controller.dmcluster;

import java.time.Duration;
import java.util.Objects;

/**
 * DM failover, as upstream's {@code --auto-failover}, {@code --dm-master-failover-period} and
 * {@code --dm-worker-failover-period}.
 *
 * @param enabled whether the operator fails DM members over at all
 * @param masterPeriod how long a dm-master member must be unhealthy before it is failed over
 *     (default 5m)
 * @param workerPeriod how long a dm-worker must be offline before a replacement is added (default 5m)
 */
public record DmFailoverSettings(boolean enabled, Duration masterPeriod, Duration workerPeriod) {

  public static final DmFailoverSettings DEFAULTS =
      new DmFailoverSettings(true, Duration.ofMinutes(5), Duration.ofMinutes(5));

  public DmFailoverSettings {
    Objects.requireNonNull(masterPeriod, "masterPeriod");
    Objects.requireNonNull(workerPeriod, "workerPeriod");
  }
}
