package io.tidb.operator.controller.monitor;

/**
 * A cluster a TidbMonitor scrapes, as the Prometheus configuration needs it.
 *
 * @param namespace the cluster's namespace
 * @param name the cluster's name (its pods' {@code app.kubernetes.io/instance})
 * @param tls whether the cluster serves its metrics over mutual TLS ({@code spec.tlsCluster})
 */
public record MonitoredCluster(String namespace, String name, boolean tls) {

  /** {@code namespace/name}. */
  public String key() {
    return namespace + "/" + name;
  }
}
