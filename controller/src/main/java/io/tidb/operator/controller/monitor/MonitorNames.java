package io.tidb.operator.controller.monitor;

import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitorSpec;

/** The names upstream gives a TidbMonitor's objects; shard 0 has no suffix. Pure. */
public final class MonitorNames {

  private MonitorNames() {}

  /** {@code spec.shards}, at least 1. */
  public static int shards(TidbMonitorSpec spec) {
    return spec.getShards() == null || spec.getShards() < 1 ? 1 : spec.getShards();
  }

  /** {@code spec.replicas}, default 1. */
  public static int replicas(TidbMonitorSpec spec) {
    return spec.getReplicas() == null ? 1 : spec.getReplicas();
  }

  /** The ServiceAccount, Role, RoleBinding, Grafana Secret and Prometheus ConfigMap: {@code <tm>-monitor}. */
  public static String monitor(TidbMonitor tm) {
    return tm.getMetadata().getName() + "-monitor";
  }

  /** The ClusterRole and ClusterRoleBinding of a cluster-scoped monitor: {@code <ns>-<tm>-monitor}. */
  public static String clusterWide(TidbMonitor tm) {
    return tm.getMetadata().getNamespace() + "-" + tm.getMetadata().getName() + "-monitor";
  }

  public static String grafanaConfigMap(TidbMonitor tm) {
    return tm.getMetadata().getName() + "-monitor-grafana";
  }

  public static String tlsAssets(TidbMonitor tm) {
    return "tidbmonitor-" + tm.getMetadata().getName() + "-tls-assets";
  }

  /** A shard's StatefulSet (and its governing Service name). */
  public static String statefulSet(TidbMonitor tm, int shard) {
    return suffixed(tm.getMetadata().getName() + "-monitor", shard);
  }

  /** A shard's {@code app.kubernetes.io/instance}: the monitor's name, or {@code <tm>-shard-<n>}. */
  public static String instance(TidbMonitor tm, int shard) {
    return suffixed(tm.getMetadata().getName(), shard);
  }

  public static String prometheusService(TidbMonitor tm, int shard) {
    return suffixed(tm.getMetadata().getName() + "-prometheus", shard);
  }

  public static String grafanaService(TidbMonitor tm, int shard) {
    return suffixed(tm.getMetadata().getName() + "-grafana", shard);
  }

  public static String reloaderService(TidbMonitor tm, int shard) {
    return suffixed(tm.getMetadata().getName() + "-monitor-reloader", shard);
  }

  /** The claim template of the data volume, and the volume's name. */
  public static final String DATA_VOLUME = "tidbmonitor";

  private static String suffixed(String base, int shard) {
    return shard == 0 ? base : base + "-shard-" + shard;
  }
}
