package io.tidb.operator.controller.monitor;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Points each monitored cluster's TiDB Dashboard at the monitor, as upstream does: {@code
 * /topology/prometheus} = {@code {"ip":"<tm>-prometheus.<ns>.svc","port":9090}} and, with
 * Grafana, {@code /topology/grafana} on port 3000, each under a 10-minute lease. Unlike upstream,
 * which writes both keys (with a new lease) on every sync, a key is written again only when its
 * value changes or half its lease has passed, so a settled monitor costs PD one write per key
 * every five minutes. Clusters without their own PD, or with PD suspended, are skipped (upstream's
 * rule). A failed write is a problem for status and is retried on the next reconcile.
 */
public final class DashboardLinks {

  public static final Duration TTL = Duration.ofMinutes(10);
  public static final Duration REWRITE_AFTER = TTL.dividedBy(2);
  public static final String PROMETHEUS_KEY = "/topology/prometheus";
  public static final String GRAFANA_KEY = "/topology/grafana";

  private record Written(String value, Instant at) {}

  private final DashboardTopology topology;
  private final Map<String, Written> written = new ConcurrentHashMap<>();

  public DashboardLinks(DashboardTopology topology) {
    this.topology = topology;
  }

  /** The keys and values {@code tm} publishes, in order. Pure. */
  static Map<String, String> keys(TidbMonitor tm) {
    String ns = tm.getMetadata().getNamespace();
    String name = tm.getMetadata().getName();
    Map<String, String> out = new LinkedHashMap<>();
    out.put(PROMETHEUS_KEY, value(name + "-prometheus." + ns + ".svc", 9090));
    if (tm.getSpec().getGrafana() != null) {
      out.put(GRAFANA_KEY, value(name + "-grafana." + ns + ".svc", 3000));
    }
    return out;
  }

  private static String value(String host, int port) {
    return "{\"ip\":\"" + host + "\",\"port\":" + port + "}";
  }

  /** Whether the cluster's Dashboard is linked: it runs its own PD, not suspended. Pure. */
  static boolean applies(TidbCluster tc) {
    return tc.getSpec() != null && tc.getSpec().getPd() != null
        && (tc.getSpec().getPd().getReplicas() == null || tc.getSpec().getPd().getReplicas() > 0)
        && !suspended(tc);
  }

  private static boolean suspended(TidbCluster tc) {
    var action = tc.getSpec().getPd().getSuspendAction() != null
        ? tc.getSpec().getPd().getSuspendAction() : tc.getSpec().getSuspendAction();
    return action != null && Boolean.TRUE.equals(action.getSuspendStatefulSet());
  }

  /** Whether a key last written as {@code last} must be written now. Pure. */
  static boolean due(Optional<String> lastValue, Optional<Instant> lastAt, String value, Instant now) {
    return lastValue.isEmpty() || !lastValue.get().equals(value)
        || !lastAt.get().plus(REWRITE_AFTER).isAfter(now);
  }

  /**
   * Writes what is due into each cluster's PD.
   *
   * @param clusters the monitored clusters whose Dashboard is linked (see {@link #applies})
   * @return one problem per cluster that could not be written, for status
   */
  List<String> publish(TidbMonitor tm, List<TidbCluster> clusters, Instant now) {
    List<String> problems = new ArrayList<>();
    Map<String, String> keys = keys(tm);
    for (TidbCluster tc : clusters) {
      for (Map.Entry<String, String> key : keys.entrySet()) {
        String id = tc.getMetadata().getNamespace() + "/" + tc.getMetadata().getName() + key.getKey();
        Optional<Written> last = Optional.ofNullable(written.get(id));
        if (!due(last.map(Written::value), last.map(Written::at), key.getValue(), now)) {
          continue;
        }
        try {
          topology.put(tc, key.getKey(), key.getValue(), TTL);
          written.put(id, new Written(key.getValue(), now));
        } catch (RuntimeException e) {
          problems.add("TiDB Dashboard of " + tc.getMetadata().getNamespace() + "/"
              + tc.getMetadata().getName() + " not pointed at the monitor (" + key.getKey() + "): "
              + e.getMessage());
          break;
        }
      }
    }
    return problems;
  }
}
