package io.tidb.operator.controller.config;

import java.time.Duration;
import java.util.Objects;

/**
 * Automatic failover, as upstream's {@code --auto-failover} and {@code --<component>-failover-period}
 * flags: a PD member unhealthy, a TiKV store Down or a TiDB server unhealthy for longer than its
 * period gets a replacement.
 *
 * @param auto whether the operator fails over at all (upstream's default: on)
 * @param pdPeriod how long a PD member must be unhealthy before it is failed over
 * @param tikvPeriod how long a TiKV store must be Down before it is failed over
 * @param tidbPeriod how long a TiDB server must be unhealthy before it is failed over
 * @param tiflashPeriod how long a TiFlash store must be Down before it is failed over
 */
public record FailoverSettings(
    boolean auto, Duration pdPeriod, Duration tikvPeriod, Duration tidbPeriod,
    Duration tiflashPeriod) {

  /** Upstream's default for each period: five minutes. */
  public static final Duration DEFAULT_PERIOD = Duration.ofMinutes(5);

  /** Upstream's defaults: on, five minutes each. */
  public static final FailoverSettings DEFAULTS =
      new FailoverSettings(true, DEFAULT_PERIOD, DEFAULT_PERIOD, DEFAULT_PERIOD, DEFAULT_PERIOD);

  public FailoverSettings {
    Objects.requireNonNull(pdPeriod, "pdPeriod");
    Objects.requireNonNull(tikvPeriod, "tikvPeriod");
    Objects.requireNonNull(tidbPeriod, "tidbPeriod");
    Objects.requireNonNull(tiflashPeriod, "tiflashPeriod");
  }

  /** PD, TiKV and TiDB periods given; TiFlash's at upstream's default. */
  public FailoverSettings(boolean auto, Duration pdPeriod, Duration tikvPeriod, Duration tidbPeriod) {
    this(auto, pdPeriod, tikvPeriod, tidbPeriod, DEFAULT_PERIOD);
  }
}
