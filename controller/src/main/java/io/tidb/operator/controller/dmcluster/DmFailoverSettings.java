package io.tidb.operator.controller.dmcluster;

import java.time.Duration;
import java.util.Objects;

/**
 * DM failover, as upstream's {@code --auto-failover} and {@code --dm-master-failover-period}.
 *
 * @param enabled whether the operator fails dm-master members over at all
 * @param masterPeriod how long a member must be unhealthy before it is failed over (default 5m)
 */
public record DmFailoverSettings(boolean enabled, Duration masterPeriod) {

  public static final DmFailoverSettings DEFAULTS = new DmFailoverSettings(true, Duration.ofMinutes(5));

  public DmFailoverSettings {
    Objects.requireNonNull(masterPeriod, "masterPeriod");
  }
}
